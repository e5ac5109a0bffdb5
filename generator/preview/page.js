// The preview page: asks for each newer state of the game and draws it. Every text from the game goes in through
// textContent or an attribute set by name, never as HTML; images only from this server, by key.
"use strict";

let state = null;
let selected = null;  // [deck id, card index] of the card whose data is shown
let view = "decks";  // the view shown: decks (the cards), stats or draw
const figures = new WeakMap();  // per card shown, its figure and what it was drawn for: drawn again only if changed

// "1 copy", "2 copies": a count with its noun
function counted(number, one, many) {
  return number + " " + (number === 1 ? one : many);
}

function make(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined && text !== null) element.textContent = String(text);
  return element;
}

function findingItem(finding) {
  const item = make("li", finding.severity);
  if (finding.where) item.append(make("span", "where", finding.where + " "));
  item.append(make("span", "", (finding.field ? finding.field + ": " : "") + finding.message));
  return item;
}

function face(key, deck) {
  // One face at its true aspect, the trim dashed inside the bleed; hovering outlines what drew the spot.
  const width = deck.width + 2 * deck.bleed, height = deck.height + 2 * deck.bleed;
  const box = make("div", "face");
  box.style.aspectRatio = width + " / " + height;
  const image = make("img");
  image.loading = "lazy";  // a deck of thousands: the server rasterises faces as they come into view
  image.src = "/face/" + key + ".png";
  image.alt = "";
  image.draggable = false;
  box.append(image);
  if (deck.bleed > 0) {
    const trim = make("div", "trim");
    place(trim, [0, 0, deck.width, deck.height], deck);
    box.append(trim);
  }
  box.dataset.key = key;
  box.addEventListener("mousemove", (event) => hover(event, box, key, deck));
  box.addEventListener("mouseleave", () => unhover(box));
  return box;
}

function place(element, outline, deck) {
  const width = deck.width + 2 * deck.bleed, height = deck.height + 2 * deck.bleed;
  element.style.left = ((outline[0] + deck.bleed) / width * 100) + "%";
  element.style.top = ((outline[1] + deck.bleed) / height * 100) + "%";
  element.style.width = (outline[2] / width * 100) + "%";
  element.style.height = (outline[3] / height * 100) + "%";
}

function hover(event, box, key, deck) {
  // The smallest element drawn under the pointer: outlined, its kind and layout place in the tip.
  const rect = box.getBoundingClientRect();
  const x = (event.clientX - rect.left) / rect.width * (deck.width + 2 * deck.bleed) - deck.bleed;
  const y = (event.clientY - rect.top) / rect.height * (deck.height + 2 * deck.bleed) - deck.bleed;
  let best = null;
  for (const outline of (state.outlines[key] || [])) {
    if (x >= outline[0] && x <= outline[0] + outline[2] && y >= outline[1] && y <= outline[1] + outline[3]) {
      if (!best || outline[2] * outline[3] < best[2] * best[3]) best = outline;
    }
  }
  let mark = box.querySelector(".outline");
  const tip = document.getElementById("tip");
  if (!best) { unhover(box); return; }
  if (!mark) { mark = make("div", "outline"); box.append(mark); }
  place(mark, best, deck);
  tip.textContent = best[4] + "  " + best[5];
  const right = event.clientX + 14 + tip.offsetWidth > window.innerWidth;  // near the right edge: to the left
  tip.style.left = (right ? event.clientX - 14 - tip.offsetWidth : event.clientX + 14) + "px";
  tip.style.top = (event.clientY + 14) + "px";
  tip.hidden = false;
}

function unhover(box) {
  const mark = box.querySelector(".outline");
  if (mark) mark.remove();
  document.getElementById("tip").hidden = true;
}

// Where a card is, and where one of its values is ([lines below the card's first, column], or null): file:line:column
function cardPlace(card) {
  return card.line ? card.file + ":" + card.line + ":" + card.column : card.file;
}

function valuePlace(card, at) {
  return card.line && at ? card.file + ":" + (card.line + at[0]) + ":" + at[1] : card.file;
}

function cardFigure(card, index, deck, pairs) {
  // A card kept from the state before (the same object: see merged) keeps its figure, and its image loaded, at
  // whatever place in its deck a save moved it to.
  const drawn = [deck.id, pairs, deck.width, deck.height, deck.bleed].join(" ");
  const kept = figures.get(card);
  if (kept && kept.drawn === drawn) {
    kept.figure.dataset.index = index;
    kept.figure.classList.toggle("selected", Boolean(selected && selected[0] === deck.id && selected[1] === index));
    return kept.figure;
  }
  const figure = make("figure", "card");
  figure.dataset.deck = deck.id;
  figure.dataset.index = index;
  const faces = make("div", "faces");
  if (card.front) faces.append(face(card.front, deck));
  if (pairs && card.back) faces.append(face(card.back, deck));
  figure.append(faces);
  const caption = make("figcaption");
  caption.append(make("span", "name", card.title), make("span", "copies", "×" + card.count));
  figure.append(caption);
  if (card.findings.length) {
    figure.classList.add("flagged");
    const list = make("ul", "card-findings");
    for (const finding of card.findings) list.append(findingItem(finding));
    figure.append(list);
  }
  if (selected && selected[0] === deck.id && selected[1] === index) figure.classList.add("selected");
  figure.addEventListener("click", () => { selected = [deck.id, Number(figure.dataset.index)]; showDetails(); draw(); });
  figures.set(card, {figure, drawn});
  return figure;
}

function deckSection(deck) {
  const section = make("section", "deck" + (deck.stale ? " stale" : ""));
  section.dataset.deck = deck.id;
  const copies = deck.cards.reduce((sum, card) => sum + card.count, 0);
  const heading = make("h2", "", deck.name);
  const kinds = deck.component === "tokens" ? "tokens · " + deck.cards.length + " kinds" : deck.cards.length + " cards";
  heading.append(make("span", "count", kinds + " · " + counted(copies, "copy", "copies")));
  section.append(heading);
  const backs = new Set(deck.cards.filter((card) => card.back).map((card) => card.back));
  const pairs = backs.size > 1;  // backs differ: each card shows its own; else the one back is shown once
  const grid = make("div", "grid" + (pairs ? " pairs" : ""));
  if (backs.size === 1) {
    const back = make("figure", "back");
    back.append(face([...backs][0], deck));
    back.append(make("figcaption", "copies", "back of every card"));
    grid.append(back);
  }
  deck.cards.forEach((card, index) => grid.append(cardFigure(card, index, deck, pairs)));
  section.append(grid);
  return section;
}

function boardSection(boards) {
  const section = make("section", "boards");
  section.append(make("h2", "", "Boards"));
  for (const board of boards) {
    const figure = make("figure", "board" + (board.stale ? " stale" : ""));
    const deck = {width: board.width, height: board.height, bleed: 0, id: board.id};
    const box = face(board.image, deck);
    box.style.maxWidth = Math.round(board.width * 4) + "px";
    figure.append(box, make("figcaption", "", board.name));
    section.append(figure);
  }
  return section;
}

function showDetails() {
  const panel = document.getElementById("details");
  const deck = selected && state.decks.find((d) => d.id === selected[0]);
  const card = deck && deck.cards[selected[1]];
  if (!card) { panel.hidden = true; selected = null; return; }
  document.getElementById("details-title").textContent = card.title;
  document.getElementById("details-where").textContent = cardPlace(card);
  document.getElementById("details-where").className = "where";
  const body = document.querySelector("#details-data tbody");
  body.replaceChildren();
  for (const value of card.data) {
    const row = make("tr");
    const shown = Array.isArray(value.value) ? value.value.join(", ") : value.value;
    row.append(make("th", "", value.name), make("td", "", shown), make("td", "where", valuePlace(card, value.at)));
    body.append(row);
  }
  const list = document.getElementById("details-findings");
  list.replaceChildren(...card.findings.map(findingItem));
  panel.hidden = false;
}

function draw() {
  document.title = state.title + " · Muster preview";
  document.getElementById("title").textContent = state.title;
  const errors = state.findings.filter((f) => f.severity === "error").length;
  const warnings = state.findings.length - errors;
  document.getElementById("status").textContent = state.version === 0 ? "reading the game…" :
    (state.stale ? "stale: showing the last good version · " : "") +
    errors + " error(s), " + warnings + " warning(s) · version " + state.version;
  document.body.classList.toggle("stale", state.stale);
  document.body.dataset.version = state.version;
  document.getElementById("findings").replaceChildren(...state.findings.map(findingItem));
  const sections = state.decks.map(deckSection);
  if (state.boards.length) sections.push(boardSection(state.boards));
  document.getElementById("decks").replaceChildren(...sections);
  document.getElementById("stats").replaceChildren(...(state.statistics || []).map(statsSection));
  const choice = document.getElementById("draw-deck");
  const chosen = choice.value;
  choice.replaceChildren(...state.decks.map((deck) => {
    const option = make("option", "", deck.name);
    option.value = deck.id;
    return option;
  }));
  if (state.decks.some((deck) => deck.id === chosen)) choice.value = chosen;
  const languages = state.languages || [];
  document.getElementById("languages").hidden = languages.length < 2;
  const language = document.getElementById("language");
  language.replaceChildren(...languages.map((tag) => {
    const option = make("option", "", tag);
    option.value = tag;
    return option;
  }));
  language.value = state.language;
}

function statsSection(deck) {
  // One deck counted: a bar per value of each trait, a column per value of each numeric trait.
  const section = make("section", "deck-stats");
  const heading = make("h2", "", deck.name);
  heading.append(make("span", "count", counted(deck.titles, "title", "titles") + " · " + counted(deck.copies, "copy", "copies")));
  section.append(heading);
  for (const [name, trait] of Object.entries(deck.composition)) {
    const block = make("div", "trait");
    block.dataset.trait = name;
    block.append(make("h3", "", trait.label));
    const bars = make("div", "bars");
    const most = Math.max(...trait.rows.map((row) => row.copies), 1);
    for (const row of trait.rows) {
      const track = make("div", "track");
      const fill = make("div", "fill");
      fill.style.width = (row.copies / most * 100) + "%";
      track.append(fill);
      bars.append(make("span", "value", row.value), track,
                  make("span", "", counted(row.copies, "copy", "copies") + " · " + (row.share * 100).toFixed(1) + " %"));
    }
    block.append(bars);
    section.append(block);
  }
  for (const [name, trait] of Object.entries(deck.distribution)) {
    const block = make("div", "trait");
    block.dataset.trait = name;
    block.append(make("h3", "", trait.label + ": " + trait.min + " to " + trait.max + ", mean " +
                      trait.mean.toFixed(2) + ", median " + trait.median));
    const columns = make("div", "columns");
    const labels = make("div", "column-labels");
    const most = Math.max(...trait.values.map((row) => row.copies), 1);
    for (const row of trait.values) {
      const column = make("div", "column");
      const fill = make("div", "fill");
      fill.style.height = (row.copies / most * 85) + "%";
      column.append(make("span", "", row.copies), fill);
      columns.append(column);
      labels.append(make("span", "", row.value));
    }
    block.append(columns, labels);
    section.append(block);
  }
  return section;
}

async function deal() {
  // A test draw from the server: the same seed, the same hand; each card shown by its face.
  const deckId = document.getElementById("draw-deck").value;
  const hand = document.getElementById("draw-hand").value;
  const seed = document.getElementById("draw-seed").value;
  const query = new URLSearchParams({deck: deckId, hand: hand, seed: seed});
  const response = await fetch("/draw.json?" + query.toString(), {cache: "no-store"});
  const dealt = await response.json();
  const said = document.getElementById("draw-said");
  const shown = document.getElementById("hand");
  const deck = state.decks.find((d) => d.id === dealt.deck);
  if (dealt.error || !deck) {
    said.textContent = dealt.error || "no such deck";
    shown.replaceChildren();
    return;
  }
  said.textContent = dealt.hand.length + " cards from " + deck.name + ", seed " + dealt.seed;
  shown.replaceChildren(...dealt.hand.map((card) => {
    const figure = make("figure", "card dealt");
    const entry = deck.cards.find((c) => c.id === card.id);
    const faces = make("div", "faces");
    if (entry && entry.front) faces.append(face(entry.front, deck));
    figure.append(faces, make("figcaption", "", card.title));
    return figure;
  }));
}

function show(chosen) {
  view = chosen;
  for (const name of ["decks", "stats", "draw"]) document.getElementById(name).hidden = name !== view;
  for (const button of document.querySelectorAll("#views button")) {
    button.classList.toggle("chosen", button.dataset.view === view);
  }
  if (view === "draw" && !document.getElementById("hand").childElementCount) deal();
}

function merged(next) {
  // A state sent as what changed since the one shown (its version: after): each deck's cards not sent are those
  // shown, the same objects (a card moved by lines added above it is told its new line), and so are the outlines.
  if (next.after === undefined) return next;
  const decks = next.decks.map((deck) => {
    if (deck.cards) return deck;
    let cards = state.decks.find((shown) => shown.id === deck.id).cards;
    for (const [at, taken, put] of deck.splices) {  // not splice(at, taken, ...put): thousands of arguments at most
      cards = cards.slice(0, at).concat(put, cards.slice(at + taken));
      // the card whose details are open moves with the cards added or taken away above it
      if (selected && selected[0] === deck.id && selected[1] >= at + taken) {
        selected = [deck.id, selected[1] + put.length - taken];
      }
    }
    for (const [from, to, lines] of deck.lines) {
      for (let index = from; index < to; index++) cards[index].line += lines;
    }
    const {splices, lines, ...entry} = deck;
    return {...entry, cards};
  });
  return {...next, decks, outlines: {...state.outlines, ...next.outlines}};
}

async function follow() {
  // Long polling: each answer comes when there is a version newer than the one shown.
  for (;;) {
    try {
      const response = await fetch("/state.json?after=" + (state ? state.version : 0), {cache: "no-store"});
      const next = await response.json();
      if (!state || next.version !== state.version) {
        state = merged(next);
        draw();
        if (selected) showDetails();
      }
    } catch (error) {
      document.getElementById("status").textContent = "preview stopped or unreachable; retrying…";
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

document.getElementById("close").addEventListener("click", () => {
  selected = null;
  document.getElementById("details").hidden = true;
  draw();
});
for (const button of document.querySelectorAll("#views button")) {
  button.addEventListener("click", () => show(button.dataset.view));
}
document.getElementById("language").addEventListener("change", (event) => {
  // the game read again in that language; the state that follows shows it
  fetch("/language?lang=" + encodeURIComponent(event.target.value), {cache: "no-store"});
});
document.getElementById("deal").addEventListener("submit", (event) => { event.preventDefault(); deal(); });
document.getElementById("redeal").addEventListener("click", () => {
  const seed = document.getElementById("draw-seed");
  seed.value = String(Number(seed.value || 0) + 1);
  deal();
});
follow();
