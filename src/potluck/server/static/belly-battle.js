// Belly Battle's game screen: the ring of 44 spaces with owners, chefs, stars and pawns; the
// round's news in the middle; a legend of its symbols; the players; your move; and the space
// you tap on, with its details and moves. Draws only from the seat's view (see potluck.js).
"use strict";

(() => {
  const { el, who, says, seatsPanel, actionButton, otherActions, plural, listOf, seatNumber } = Potluck;
  const VERB_WORDS = {
    takeover: "Take it over", insure: "Insure it", chef: "Add a chef", star: "Add a star",
    "sell-chef": "Sell a chef", "sell-star": "Sell its star", sell: "Sell it to the bank",
  };
  const COLOURS = ["#d9480f", "#1c7ed6", "#2b8a3e", "#ae3ec9", "#f59f00", "#0c8599"];
  // Each special space: its symbol (one every system font has; no colour emoji, which many
  // Linux machines lack), its name and what it does, in this project's words of the rulebook.
  const SPECIALS = {
    start: ["⚑", "Start", "Where everyone begins; nothing happens when you land here."],
    munchtime: ["♨", "Munchtime", "Everyone else shows their Munchtime card and pays you the fee of each of your restaurants of those two cuisines; then they draw new cards."],
    tunnel: ["⇆", "Tunnel", "You may go through to the other tunnel (not two turns in a row)."],
    takeover: ["⚔", "Takeover Battle", "You may challenge a rival's restaurant: both roll, the owner more times for chefs and a star; win it, or pay its fee."],
    yuck: ["☹", "Yuck!", "A cockroach in the food: choose a player who pays you 50."],
    "golden-belly": ["♛", "Golden Belly Award", "The award goes on the restaurant you bought last: landing there pays double, and you collect the fee paid next door too."],
    bellyguard: ["☂", "BellyGuard Insurance", "Insure one of your restaurants: no Takeover Battle or Swap Swap can touch it."],
    celebrity: ["✪", "Celebrity Visit", "For one round your restaurants charge 50 more."],
    bollywood: ["♫", "Bollywood Shooting", "If you own a restaurant, the bank pays you 100."],
    swap: ["⇄", "Swap Swap", "You may swap one of your restaurants for a rival's, chefs and star included."],
    haunted: ["☠", "Haunted", "For one round your restaurants collect no fees."],
    "sneaky-eyes": ["◉", "Sneaky Eyes", "You see every other player's Munchtime card."],
    monsterchef: ["☢", "MonsterChef", "For one round your restaurants charge double."],
    "cheesy-scandal": ["⚠", "Cheesy Scandal", "For one round no restaurant that uses cheese collects fees."],
  };
  // The marks on a restaurant's space.
  const MARKS = [
    ["♙", "chefs hired there (each raises its fee)"],
    ["★", "a star (the highest fee)"],
    ["☂", "insured by a BellyGuard card"],
    ["◆", "uses cheese (no fees during a Cheesy Scandal)"],
    ["☕", "a corner cafe: a fixed fee from everyone who passes or lands"],
  ];
  const PROMPTS = {
    "buy-or-pass": "Buy the restaurant you landed on, or pass",
    takeover: "Takeover Battle: you may challenge a rival's restaurant",
    swap: "Swap Swap: you may trade one of your restaurants for a rival's",
    insure: "BellyGuard: insure one of your restaurants",
    yuck: "Yuck! Choose who pays the fine",
    tunnel: "The tunnel: take it to the other end, or stay",
    "upgrade-window": "Upgrade window: hire chefs, earn stars, sell or offer restaurants",
    "respond-to-offer": "An offer is on the table",
    "raise-cash": "Raise cash to pay what you owe",
    over: "The game is over",
  };
  const CUISINE_COLOURS = ["#e8590c", "#f08c00", "#66a80f", "#1098ad", "#7048e8", "#c2255c", "#5c940d", "#1971c2"];
  let selected = null;  // the board space the player last tapped; kept across redraws
  let shownStep = null;  // the step of the payload last drawn

  function cap(text) { return text ? text[0].toUpperCase() + text.slice(1) : text; }

  function cuisineColour(view, cuisine) {
    const names = [...new Set(view.board.filter((s) => s.cuisine).map((s) => s.cuisine))];
    return CUISINE_COLOURS[names.indexOf(cuisine) % CUISINE_COLOURS.length];
  }

  // A space's name: the card's, or the special space's (numbered where the board has two).
  function titleOf(space) {
    if (space.title) return space.title;
    return space.card ? space.name : (SPECIALS[space.kind] || [null, Potluck.words(space.name)])[1];
  }

  // The special spaces' names when the space is small, with their soft hyphens.
  const SHORT = {
    Start: "Start", Munchtime: "Munch\u00adtime", Tunnel: "Tunnel", "Takeover Battle": "Take\u00adover",
    "Yuck!": "Yuck!", "Golden Belly Award": "Golden Belly", "BellyGuard Insurance": "Belly\u00adGuard",
    "Celebrity Visit": "Cele\u00adbrity", "Bollywood Shooting": "Bolly\u00adwood", "Swap Swap": "Swap Swap",
    Haunted: "Haunted", "Sneaky Eyes": "Sneaky Eyes", MonsterChef: "Monster\u00adChef", "Cheesy Scandal": "Cheesy Scandal",
  };
  const VOWEL = /[aeiouy]/i;
  // Where a long word may break (a soft hyphen), near its middle: between two consonants
  // ("Amrit-sari") or else before a consonant after a vowel ("Cheese-burg"), never leaving
  // fewer than three letters on a line; short words stay whole.
  function breakable(text) {
    return text.split(" ").map((word) => {
      if (word.length < 8) return word;
      const middle = word.length / 2;
      const at = (test) => [...word].map((_, i) => i).filter((i) => i >= 3 && i <= word.length - 3 && test(i))
        .sort((x, y) => Math.abs(x - middle) - Math.abs(y - middle))[0];
      const consonant = (i) => /[a-z]/i.test(word[i]) && !VOWEL.test(word[i]);
      const cut = at((i) => consonant(i - 1) && consonant(i) && !/[cst]h/i.test(word.slice(i - 1, i + 1)))
        ?? at((i) => VOWEL.test(word[i - 1]) && consonant(i));
      return cut === undefined ? word : `${word.slice(0, cut)}\u00ad${word.slice(cut)}`;
    }).join(" ");
  }

  // Each space's labels, none alike: `long` for a roomy space (a restaurant's name, its
  // first two words when it is long), `short` for a small one (its first word, or two where
  // another starts alike); a special space's short name, numbered where the board has two.
  function spaceLabels(board) {
    const words = (s, n) => s.name.split(/\s+/).slice(0, n).join(" ");
    const count = (n) => board.filter((s) => s.card).reduce((c, s) => ({ ...c, [words(s, n)]: (c[words(s, n)] || 0) + 1 }), {});
    const ones = count(1);
    return board.map((s) => {
      if (!s.card) {
        const [, base, number] = /^(.*?)( \d+)?$/.exec(titleOf(s));
        const label = `${SHORT[base] || breakable(base)}${number || ""}`;
        return { long: label, short: label };
      }
      const first = words(s, 1);
      const short = ones[first] > 1 || first.length < 4 ? words(s, 2) : first;
      return { long: breakable(s.name.length <= 17 ? s.name : words(s, 2)), short: breakable(short) };
    });
  }

  // Where space i sits on a 12 x 12 grid, counter-clockwise from the bottom-right corner.
  function place(i, size) {
    const side = size / 4;  // 11 for the 44-space board
    if (i <= side) return [side + 1, side + 1 - i];
    if (i <= 2 * side) return [2 * side + 1 - i, 1];
    if (i <= 3 * side) return [1, i - 2 * side + 1];
    return [i - 3 * side + 1, side + 1];
  }

  function actionsFor(payload, slug) {
    return payload.legal.filter((a) => a.action.split(" ").includes(slug));
  }

  function pawn(payload, seat) {
    return el("span", { class: "pawn", style: `background:${COLOURS[seat % COLOURS.length]}`, title: who(payload, seat, true), "data-seat": seat, text: seatNumber(seat) });
  }

  function space(payload, info, cards, label, redraw) {
    const view = payload.view;
    const card = info.card ? cards[info.card] : null;
    const [row, col] = place(info.space, view.board.length);
    const owner = card && card.owner !== null ? card.owner : null;
    const pawns = view.players.filter((p) => p.position === info.space && !p.bankrupt);
    const can = info.card && actionsFor(payload, info.card).length > 0;
    const classes = ["space", info.kind, can ? "can" : "", selected === info.space ? "selected" : "",
      view.golden_belly && view.golden_belly === info.card ? "golden" : ""].filter(Boolean).join(" ");
    const style = `grid-row:${row};grid-column:${col};` +
      (owner !== null ? `--owner:${COLOURS[owner % COLOURS.length]};` : "") +
      (info.cuisine ? `--band:${cuisineColour(view, info.cuisine)};` : "");
    const title = titleOf(info);
    const about = info.card
      ? `${title}, ${info.cuisine ? `${cap(info.cuisine)} restaurant` : "corner cafe"}, ` +
        (owner !== null ? `${who(payload, owner)} ${who(payload, owner) === "you" ? "own" : "owns"} it, fee ${card.fee}` : `for sale at ${info.price}`)
      : `${title}: ${(SPECIALS[info.kind] || ["", "", ""])[2]}`;
    const icon = info.card ? (info.kind === "cafe" ? "☕" : "") : (SPECIALS[info.kind] || ["·"])[0];
    return el("div", {
      class: classes, style, title: about, "aria-label": about, "data-space": info.space, "data-card": info.card || null,
      role: "button", tabindex: "0", "aria-pressed": selected === info.space ? "true" : "false",
      onclick: () => { selected = info.space; redraw(); },
    },
    el("div", { class: "band" }, el("span", { class: "icon", "aria-hidden": "true", text: icon }),
      pawns.length ? el("span", { class: "pawns" }, pawns.map((p) => pawn(payload, p.seat))) : null),
    el("div", { class: "label", "aria-hidden": "true" },
      el("span", { class: "long", text: label.long }),
      el("span", { class: "short", text: label.short })),
    card ? el("div", { class: "meta", "aria-hidden": "true" },
      owner !== null ? el("span", { class: "fee", text: `${card.fee}` }) : el("span", { class: "price", text: `${info.price}` }),
      card.chefs ? el("span", { class: "chefs", text: `${card.chefs}♙` }) : null,
      card.star ? el("span", { class: "star", text: "★" }) : null,
      card.insured ? el("span", { class: "guard", text: "☂" }) : null,
      info.cheese ? el("span", { class: "cheese", text: "◆" }) : null) : null);
  }

  function centre(payload) {
    const view = payload.view;
    const dice = view.dice && view.dice.length ? view.dice.map((d) => "⚀⚁⚂⚃⚄⚅"[d - 1] || d).join(" ") : "";
    const holders = Object.entries(view.round_cards).filter(([, h]) => h !== null)
      .map(([name, h]) => `${name}: ${who(payload, h)}`);
    const golden = view.golden_belly ? view.board.find((s) => s.card === view.golden_belly) : null;
    return el("div", { class: "centre", id: "centre", "data-keep-scroll": "centre" },
      el("h2", { text: "Belly Battle" }),
      el("p", { class: "round", text: `Round ${view.round} of at most ${view.max_rounds}` }),
      view.phase !== "over" ? el("p", { class: "turn" }, pawn(payload, view.turn),
        ` ${who(payload, view.turn) === "you" ? "Your" : `${who(payload, view.turn, true)}'s`} turn`) : null,
      dice ? el("p", { class: "dice", title: "the last roll", "aria-label": `the last roll: ${view.dice.join(" and ")}`, text: dice }) : null,
      el("p", { class: "prompt", id: "prompt", text: PROMPTS[view.phase] || Potluck.words(view.phase) }),
      view.offer ? el("p", { class: "offer", id: "offer-note",
        text: `${who(payload, view.offer.seller, true)} ${who(payload, view.offer.seller) === "you" ? "offer" : "offers"} ${titleOf(view.board.find((s) => s.card === view.offer.card))} to ${who(payload, view.offer.buyer)} for ${view.offer.price}` }) : null,
      view.debt ? el("p", { class: "debt", text: `${who(payload, view.debt.payer, true)} ${who(payload, view.debt.payer) === "you" ? "owe" : "owes"} ${view.debt.amount} to ${view.debt.payee === null ? "the bank" : who(payload, view.debt.payee)}` }) : null,
      golden ? el("p", { text: `♛ Golden Belly Award: ${golden.name}` }) : null,
      holders.length ? el("p", { class: "muted", text: holders.join(" · ") }) : null,
      el("p", { class: "muted supply", text: `Bank: ${plural(view.supply.chefs, "chef")}, ${plural(view.supply.stars, "star")}, ${plural(view.supply.bellyguards, "BellyGuard card")}, ${plural(view.supply.munchtime_cards, "Munchtime card")}` }),
      view.log.length ? el("ul", { class: "log" }, view.log.slice(-4).map((line) => el("li", { text: says(payload, line) }))) : null);
  }

  // What every symbol and mark on the board means (a phone has no hover).
  // Open on a wide screen, folded on a phone (where it would push the moves far down);
  // the player's own choice is kept across redraws.
  let legendOpen = null;
  function legend() {
    if (legendOpen === null) legendOpen = window.matchMedia("(min-width: 760px)").matches;
    return el("details", { class: "panel belly-legend", id: "legend", open: legendOpen,
      ontoggle: (event) => { legendOpen = event.target.open; } },
      el("summary", { text: "What the symbols mean" }),
      el("ul", { class: "legend-list" },
        Object.entries(SPECIALS).map(([kind, [icon, name, what]]) => el("li", { "data-kind": kind },
          el("span", { class: "legend-icon", "aria-hidden": "true", text: icon }), el("strong", { text: name }), `: ${what}`)),
        MARKS.map(([icon, what]) => el("li", {}, el("span", { class: "legend-icon", "aria-hidden": "true", text: icon }), ` ${what}`)),
        el("li", {}, el("span", { class: "legend-icon price", text: "120" }), " a restaurant for sale: its price"),
        el("li", {}, el("span", { class: "legend-icon fee", text: "20" }), " an owned one: the fee it charges now; its border is the owner's colour"),
        el("li", {}, el("span", { class: "legend-icon pawn-sample", text: "1" }), " a player's pawn, numbered by seat")));
  }

  function players(payload) {
    const view = payload.view;
    const names = Object.fromEntries(view.board.filter((s) => s.card).map((s) => [s.card, s.name]));
    return el("section", { class: "panel", id: "players" }, el("h2", { text: "Players" }),
      el("div", { class: "belly-players" }, view.players.map((p) => el("div", {
        class: `belly-player${p.seat === view.seat ? " me" : ""}${p.bankrupt ? " bankrupt" : ""}`, "data-seat": p.seat,
        style: `--owner:${COLOURS[p.seat % COLOURS.length]}`,
      },
      el("div", { class: "name" }, pawn(payload, p.seat), " ", who(payload, p.seat, true),
        payload.table.seats[p.seat].kind === "bot" ? el("span", { class: "badge bot", text: "bot" }) : null,
        view.to_act.includes(p.seat) && view.phase !== "over" ? el("span", { class: "badge turn", text: "to act" }) : null,
        p.bankrupt ? el("span", { class: "badge away", text: "bankrupt" }) : null),
      el("div", { class: "stats" },
        el("span", { title: "cash", text: `cash ${p.cash}` }),
        el("span", { title: "wealth: cash plus what the bank pays for property", text: `wealth ${p.wealth}` }),
        el("span", { title: "where the pawn stands", text: `on ${titleOf(view.board[p.position])}` })),
      p.cards.length ? el("div", { class: "owned", text: p.cards.map((c) => names[c]).join(", ") }) : el("div", { class: "owned muted", text: "no restaurants yet" })))));
  }

  // The space last tapped: what it is, who owns it and stands on it, and its moves.
  function spacePanel(payload, ctx) {
    const view = payload.view;
    const box = el("section", { class: "panel", id: "card" });
    const info = selected === null ? null : view.board[selected];
    if (!info) {
      box.append(el("p", { class: "muted", text: "Tap any space on the board to see what it is and what you can do there." }));
      return box;
    }
    const here = view.players.filter((p) => p.position === info.space && !p.bankrupt).map((p) => who(payload, p.seat));
    const standing = here.length ? el("p", { class: "muted", text: `Standing here: ${listOf(here)}.` }) : null;
    if (!info.card) {
      const [icon, name, what] = SPECIALS[info.kind] || ["", titleOf(info), ""];
      box.append(...[el("h2", {}, el("span", { "aria-hidden": "true", text: `${icon} ` }), titleOf(info) || name), el("p", { text: what }), standing].filter(Boolean));
      return box;
    }
    const card = view.cards.find((c) => c.card === info.card);
    box.append(el("h2", { text: info.name }),
      el("p", { class: "muted", text: `${info.cuisine ? `${cap(info.cuisine)} restaurant` : "Corner cafe"} · price ${info.price}` +
        (card.owner !== null ? ` · ${who(payload, card.owner) === "you" ? "yours" : `owned by ${who(payload, card.owner)}`}` : " · the bank's, for sale") +
        ` · fee now ${card.fee}` + (card.chefs ? ` · ${plural(card.chefs, "chef")}` : "") + (card.star ? " · starred" : "") + (card.insured ? " · insured" : "") }));
    if (standing) box.append(standing);
    if (info.fees) box.append(el("p", { class: "fees", text: `Fees: basic ${info.fees[0]} · 1 chef ${info.fees[1]} · 2 chefs ${info.fees[2]} · star ${info.fees[3]}` }));
    // Everything else printed on the card: token prices and the cheese mark (Cheesy Scandal).
    if (info.chef_price !== null && info.chef_price !== undefined) box.append(el("p", { class: "printed", text: `A chef costs ${info.chef_price}, a star ${info.star_price}` + (info.cheese ? " · uses cheese ◆ (no fees during a Cheesy Scandal)" : " · no cheese") }));
    if (info.cafe_fee !== null && info.cafe_fee !== undefined) box.append(el("p", { class: "printed", text: `A fixed fee of ${info.cafe_fee}, paid by everyone who passes or lands` }));
    if (ctx.readOnly || payload.seat === null || payload.seat === undefined) return box;
    const verbs = ["takeover", "insure", "chef", "star", "sell-chef", "sell-star", "sell"];
    box.append(el("div", { class: "actions" }, verbs.filter((v) => !(info.kind === "cafe" && ["chef", "star", "sell-chef", "sell-star", "insure"].includes(v)))
      .map((verb) => {
        // A move that is not possible now still says in words what it would do.
        const action = `${verb} ${info.card}`;
        const legal = payload.legal.find((a) => a.action === action);
        return actionButton(payload, ctx, action, { class: "secondary" }, legal ? says(payload, legal.label) : `${VERB_WORDS[verb]} (not now)`);
      })));
    const more = actionsFor(payload, info.card).filter((a) => !verbs.some((v) => a.action === `${v} ${info.card}`));
    if (more.length) box.append(el("div", { class: "actions offers" }, more.map((a) => actionButton(payload, ctx, a.action, {}))));
    return box;
  }

  function movePanel(payload, ctx) {
    const view = payload.view;
    const watching = payload.seat === null || payload.seat === undefined;
    const box = el("section", { class: "panel", id: "moves" }, el("h2", { text: watching ? "Watching" : "Your move" }));
    if (watching) {
      box.append(el("p", { class: "muted", text: "You are a spectator: Munchtime cards stay secret." }));
      return box;
    }
    if (view.you) {
      const seen = Object.entries(view.you.seen).map(([s, c]) => `${who(payload, Number(s), true)}: ${c.map(cap).join(" + ")}`);
      box.append(el("p", { class: "muted", id: "munchtime", text: `Your Munchtime card: ${view.you.munchtime.map(cap).join(" + ")}` + (seen.length ? ` · seen: ${seen.join("; ")}` : "") }));
    }
    if (!payload.legal.length) {
      box.append(el("p", { class: "muted", id: "waiting", text: "Nothing to do now." }));
      return box;
    }
    box.append(el("p", { class: "prompt", text: PROMPTS[view.phase] || Potluck.words(view.phase) }));
    // Card actions live on the board (tap a space); everything else is here.
    const onCards = new Set(payload.legal.filter((a) => view.board.some((s) => s.card && a.action.split(" ").includes(s.card))).map((a) => a.action));
    const tapHint = onCards.size ? el("p", { class: "muted", text: `The highlighted spaces have ${plural(onCards.size, "more move")}: tap one.` }) : null;
    box.append(...[otherActions(payload, ctx, onCards), tapHint].filter(Boolean));
    return box;
  }

  Potluck.renderers["belly-battle"] = (root, payload, ctx) => {
    const view = payload.view;
    const cards = Object.fromEntries(view.cards.map((c) => [c.card, c]));
    const spaceOf = (slug) => view.board.findIndex((s) => s.card === slug);
    if (selected !== null && !view.board[selected]) selected = null;
    // On each new decision, show a space that has moves unless the one shown has some; a
    // tap (the same step, redrawn) keeps whatever the player chose to look at.
    if (payload.step !== shownStep && !ctx.readOnly) {
      shownStep = payload.step;
      const shown = selected === null ? null : view.board[selected].card;
      if (!shown || !actionsFor(payload, shown).length) {
        const first = payload.legal.map((a) => a.action.split(" ")[1]).find((slug) => slug && cards[slug]);
        if (first) selected = spaceOf(first);
      }
    }
    const redraw = () => Potluck.render(root, payload, ctx);
    const labels = spaceLabels(view.board);
    const board = el("div", { class: "board-scroll", "data-keep-scroll": "board" }, el("div", { class: "belly-board", id: "board" },
      view.board.map((s, i) => space(payload, s, cards, labels[i], redraw)), centre(payload)));
    // On a phone the board is wider than the screen: say that it scrolls (see belly-battle.css).
    const hint = el("p", { class: "scroll-hint", id: "board-hint", "aria-hidden": "true", text: "Swipe the board sideways to see every space →" });
    const screen = el("div", { class: "belly" });
    if (view.final_scores) {
      screen.append(el("div", { class: "notice good", id: "final" }, el("strong", { text: "Final wealth: " }),
        view.final_scores.map((s, i) => `${who(payload, i, i === 0)} ${s}`).join(" · "), "."));
    }
    screen.append(el("div", { class: "grid two" },
      el("div", {}, hint, board, legend()),
      el("div", {}, ctx.readOnly ? null : movePanel(payload, ctx), spacePanel(payload, ctx), players(payload))));
    screen.append(seatsPanel(payload));
    root.append(screen);
  };
})();
