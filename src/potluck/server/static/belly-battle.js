// Belly Battle's game screen: the ring of 44 spaces with owners, chefs, stars and pawns; the
// round's news in the middle; the players; your move; and the restaurant you tap on.
// Draws only from the seat's view (see potluck.js).
"use strict";

(() => {
  const { el, seatName, seatsPanel, actionButton, otherActions } = Potluck;
  const VERB_WORDS = {
    takeover: "Take it over", insure: "Insure it", chef: "Add a chef", star: "Add a star",
    "sell-chef": "Sell a chef", "sell-star": "Sell its star", sell: "Sell it to the bank",
  };
  const COLOURS = ["#d9480f", "#1c7ed6", "#2b8a3e", "#ae3ec9", "#f59f00", "#0c8599"];
  // Symbols every system font has (no colour emoji: many Linux machines lack them).
  const ICONS = {
    start: "⚑", munchtime: "♨", tunnel: "⇆", takeover: "⚔", yuck: "☹", "golden-belly": "♛",
    bellyguard: "☂", celebrity: "✪", bollywood: "♫", swap: "⇄", haunted: "☠",
    "sneaky-eyes": "◉", monsterchef: "☢", "cheesy-scandal": "⚠", cafe: "☕",
  };
  const PROMPTS = {
    "buy-or-pass": "Buy the restaurant you landed on, or pass",
    takeover: "Takeover: you may buy a rival's restaurant",
    swap: "Swap: trade one of your restaurants for a rival's",
    insure: "BellyGuard: insure one of your restaurants",
    yuck: "Yuck! Choose who pays the fine",
    tunnel: "The tunnel: take it to the other end, or stay",
    "upgrade-window": "Upgrade window: hire chefs, earn stars, sell or offer restaurants",
    "respond-to-offer": "An offer is on the table",
    "raise-cash": "Raise cash to pay what you owe",
    over: "The game is over",
  };
  const CUISINE_COLOURS = ["#e8590c", "#f08c00", "#66a80f", "#1098ad", "#7048e8", "#c2255c", "#5c940d", "#1971c2"];
  let selected = null;  // the card slug the player last tapped; kept across redraws
  let shownStep = null;  // the step of the payload last drawn

  function cuisineColour(view, cuisine) {
    const names = [...new Set(view.board.filter((s) => s.cuisine).map((s) => s.cuisine))];
    return CUISINE_COLOURS[names.indexOf(cuisine) % CUISINE_COLOURS.length];
  }

  // Where space i sits on a 12 x 12 grid, counter-clockwise from the bottom-right corner.
  function place(i, size) {
    const side = size / 4;  // 11 for the 44-space board
    if (i <= side) return [side + 1, side + 1 - i];
    if (i <= 2 * side) return [2 * side + 1 - i, 1];
    if (i <= 3 * side) return [1, i - 2 * side + 1];
    return [i - 3 * side + 1, side + 1];
  }

  function shortName(name) {
    return name.split(/[\s-]+/).filter((w) => w.length > 2 || /^[A-Z]/.test(w)).map((w) => w[0].toUpperCase()).join("").slice(0, 3);
  }

  function actionsFor(payload, slug) {
    return payload.legal.filter((a) => a.action.split(" ").includes(slug));
  }

  function space(payload, ctx, spaceInfo, cards, redraw) {
    const view = payload.view;
    const card = spaceInfo.card ? cards[spaceInfo.card] : null;
    const [row, col] = place(spaceInfo.space, view.board.length);
    const owner = card && card.owner !== null ? card.owner : null;
    const pawns = view.players.filter((p) => p.position === spaceInfo.space && !p.bankrupt);
    const can = spaceInfo.card && actionsFor(payload, spaceInfo.card).length > 0;
    const classes = ["space", spaceInfo.kind, can ? "can" : "", selected && selected === spaceInfo.card ? "selected" : "",
      view.golden_belly && view.golden_belly === spaceInfo.card ? "golden" : ""].filter(Boolean).join(" ");
    const style = `grid-row:${row};grid-column:${col};` +
      (owner !== null ? `--owner:${COLOURS[owner % COLOURS.length]};` : "") +
      (spaceInfo.cuisine ? `--band:${cuisineColour(view, spaceInfo.cuisine)};` : "");
    const title = spaceInfo.card
      ? `${spaceInfo.name}${spaceInfo.cuisine ? ` (${spaceInfo.cuisine})` : " (cafe)"} · price ${spaceInfo.price}` +
        (owner !== null ? ` · owned by ${seatName(payload.table, owner)} · fee ${card.fee}` : " · for sale")
      : spaceInfo.name.replace(/-/g, " ");
    return el("div", {
      class: classes, style, title, "data-space": spaceInfo.space, "data-card": spaceInfo.card || null,
      role: spaceInfo.card ? "button" : null, tabindex: spaceInfo.card ? "0" : null,
      onclick: spaceInfo.card ? () => { selected = spaceInfo.card; redraw(); } : null,
    },
      el("div", { class: "band" }, spaceInfo.card ? (spaceInfo.kind === "cafe" ? ICONS.cafe : "") : ICONS[spaceInfo.kind] || "·"),
      el("div", { class: "label" },
        el("span", { class: "long", text: spaceInfo.card ? spaceInfo.name : spaceInfo.name.replace(/-/g, " ") }),
        el("span", { class: "short", text: spaceInfo.card ? shortName(spaceInfo.name) : "" })),
      card ? el("div", { class: "meta" },
        owner !== null ? el("span", { class: "fee", text: `${card.fee}` }) : el("span", { class: "price", text: `${spaceInfo.price}` }),
        card.chefs ? el("span", { class: "chefs", title: `${card.chefs} chef(s)`, text: `${card.chefs}♙` }) : null,
        card.star ? el("span", { class: "star", title: "a star", text: "★" }) : null,
        card.insured ? el("span", { class: "guard", title: "insured by a BellyGuard", text: "☂" }) : null,
        spaceInfo.cheese ? el("span", { class: "cheese", title: "uses cheese (Cheesy Scandal)", "aria-label": "uses cheese", text: "◆" }) : null) : null,
      pawns.length ? el("div", { class: "pawns" }, pawns.map((p) =>
        el("span", { class: "pawn", style: `background:${COLOURS[p.seat % COLOURS.length]}`, title: seatName(payload.table, p.seat), "data-seat": p.seat, text: String(p.seat) }))) : null);
  }

  function centre(payload) {
    const view = payload.view;
    const dice = view.dice && view.dice.length ? view.dice.map((d) => "⚀⚁⚂⚃⚄⚅"[d - 1] || d).join(" ") : "";
    const holders = Object.entries(view.round_cards).filter(([, h]) => h !== null)
      .map(([name, h]) => `${name}: ${seatName(payload.table, h)}`);
    const golden = view.golden_belly ? view.board.find((s) => s.card === view.golden_belly) : null;
    return el("div", { class: "centre", id: "centre" },
      el("h2", { text: "Belly Battle" }),
      el("p", { class: "round", text: `Round ${view.round} of at most ${view.max_rounds}` }),
      view.phase !== "over" ? el("p", { class: "turn" }, el("span", { class: "pawn", style: `background:${COLOURS[view.turn % COLOURS.length]}`, text: String(view.turn) }),
        ` ${seatName(payload.table, view.turn)}'s turn`) : null,
      dice ? el("p", { class: "dice", title: "the last roll", text: dice }) : null,
      el("p", { class: "prompt", id: "prompt", text: PROMPTS[view.phase] || view.phase }),
      view.offer ? el("p", { class: "offer", id: "offer-note",
        text: `${seatName(payload.table, view.offer.seller)} offers ${view.board.find((s) => s.card === view.offer.card).name} to ${seatName(payload.table, view.offer.buyer)} for ${view.offer.price}` }) : null,
      view.debt ? el("p", { class: "debt", text: `${seatName(payload.table, view.debt.payer)} owes ${view.debt.amount} to ${view.debt.payee === null ? "the bank" : seatName(payload.table, view.debt.payee)}` }) : null,
      golden ? el("p", { text: `♛ Golden Belly Award: ${golden.name}` }) : null,
      holders.length ? el("p", { class: "muted", text: holders.join(" · ") }) : null,
      el("p", { class: "muted supply", text: `Bank: ${view.supply.chefs} chefs, ${view.supply.stars} stars, ${view.supply.bellyguards} BellyGuards, ${view.supply.munchtime_cards} Munchtime cards` }),
      view.log.length ? el("ul", { class: "log" }, view.log.slice(-4).map((line) => el("li", { text: Potluck.namedSeats(payload.table, line) }))) : null);
  }

  function players(payload) {
    const view = payload.view;
    const names = Object.fromEntries(view.board.filter((s) => s.card).map((s) => [s.card, s.name]));
    return el("section", { class: "panel", id: "players" }, el("h2", { text: "Players" }),
      el("div", { class: "belly-players" }, view.players.map((p) => el("div", {
        class: `belly-player${p.seat === view.seat ? " me" : ""}${p.bankrupt ? " bankrupt" : ""}`, "data-seat": p.seat,
        style: `--owner:${COLOURS[p.seat % COLOURS.length]}`,
      },
        el("div", { class: "name" }, el("span", { class: "pawn", style: `background:${COLOURS[p.seat % COLOURS.length]}`, text: String(p.seat) }),
          " ", seatName(payload.table, p.seat), p.seat === view.seat ? " (you)" : "",
          payload.table.seats[p.seat].kind === "bot" ? el("span", { class: "badge bot", text: "bot" }) : null,
          view.to_act.includes(p.seat) && view.phase !== "over" ? el("span", { class: "badge turn", text: "to act" }) : null,
          p.bankrupt ? el("span", { class: "badge away", text: "bankrupt" }) : null),
        el("div", { class: "stats" },
          el("span", { title: "cash", text: `cash ${p.cash}` }),
          el("span", { title: "wealth: cash plus what the bank pays for property", text: `wealth ${p.wealth}` }),
          el("span", { title: "where the pawn stands", text: `at ${p.space.replace(/-/g, " ")}` })),
        p.cards.length ? el("div", { class: "owned", text: p.cards.map((c) => names[c]).join(", ") }) : el("div", { class: "owned muted", text: "no restaurants yet" })))));
  }

  function cardPanel(payload, ctx) {
    const view = payload.view;
    const box = el("section", { class: "panel", id: "card" });
    if (!selected) {
      box.append(el("p", { class: "muted", text: "Tap a restaurant or cafe on the board to see it and what you can do with it." }));
      return box;
    }
    const info = view.board.find((s) => s.card === selected);
    const card = view.cards.find((c) => c.card === selected);
    box.append(el("h2", { text: info.name }),
      el("p", { class: "muted", text: `${info.cuisine ? info.cuisine + " restaurant" : "cafe"} · price ${info.price}` +
        (card.owner !== null ? ` · owned by ${seatName(payload.table, card.owner)}` : " · the bank's") +
        ` · fee now ${card.fee}` + (card.chefs ? ` · ${card.chefs} chef(s)` : "") + (card.star ? " · starred" : "") + (card.insured ? " · insured" : "") }));
    if (info.fees) box.append(el("p", { class: "fees", text: `Fees: basic ${info.fees[0]} · 1 chef ${info.fees[1]} · 2 chefs ${info.fees[2]} · star ${info.fees[3]}` }));
    // Everything else printed on the card: token prices and the cheese mark (Cheesy Scandal).
    if (info.chef_price !== null && info.chef_price !== undefined) box.append(el("p", { class: "printed", text: `Chef ${info.chef_price} · star ${info.star_price}` + (info.cheese ? " · uses cheese ◆ (no fees during a Cheesy Scandal)" : " · no cheese") }));
    if (info.cafe_fee !== null && info.cafe_fee !== undefined) box.append(el("p", { class: "printed", text: `Fixed fee ${info.cafe_fee}, paid by everyone who passes or lands` }));
    if (ctx.readOnly || payload.seat === null || payload.seat === undefined) return box;
    const verbs = ["takeover", "insure", "chef", "star", "sell-chef", "sell-star", "sell"];
    box.append(el("div", { class: "actions" }, verbs.filter((v) => !(info.kind === "cafe" && ["chef", "star", "sell-chef", "sell-star", "insure"].includes(v)))
      .map((verb) => {
        // A move that is not possible now still says in words what it would do.
        const action = `${verb} ${selected}`;
        const legal = payload.legal.find((a) => a.action === action);
        return actionButton(payload, ctx, action, { class: "secondary" }, legal ? legal.label : `${VERB_WORDS[verb]} (not now)`);
      })));
    const more = actionsFor(payload, selected).filter((a) => !verbs.some((v) => a.action === `${v} ${selected}`));
    if (more.length) box.append(el("div", { class: "actions offers" }, more.map((a) =>
      el("button", { "data-action": a.action, onclick: () => ctx.act(a.action), text: a.label }))));
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
      const seen = Object.entries(view.you.seen).map(([s, c]) => `${seatName(payload.table, Number(s))}: ${c.join(" + ")}`);
      box.append(el("p", { class: "muted", id: "munchtime", text: `Your Munchtime card: ${view.you.munchtime.join(" + ")}` + (seen.length ? ` · seen: ${seen.join("; ")}` : "") }));
    }
    if (!payload.legal.length) {
      box.append(el("p", { class: "muted", id: "waiting", text: payload.waiting || "Nothing to do now." }));
      return box;
    }
    box.append(el("p", { class: "prompt", text: PROMPTS[view.phase] || view.phase }));
    // Card actions live on the board (tap a space); everything else is here.
    const onCards = new Set(payload.legal.filter((a) => view.board.some((s) => s.card && a.action.split(" ").includes(s.card))).map((a) => a.action));
    const tapHint = onCards.size ? el("p", { class: "muted", text: `Highlighted spaces have ${onCards.size} more move(s): tap one.` }) : null;
    box.append(...[otherActions(payload, ctx, onCards), tapHint].filter(Boolean));
    return box;
  }

  Potluck.renderers["belly-battle"] = (root, payload, ctx) => {
    const view = payload.view;
    const cards = Object.fromEntries(view.cards.map((c) => [c.card, c]));
    if (selected && !cards[selected]) selected = null;
    // On each new decision, show a card that has moves unless the one shown has some; a
    // tap (the same step, redrawn) keeps whatever the player chose to look at.
    if (payload.step !== shownStep && !ctx.readOnly) {
      shownStep = payload.step;
      if (!selected || !actionsFor(payload, selected).length) {
        const first = payload.legal.map((a) => a.action.split(" ")[1]).find((slug) => slug && cards[slug]);
        if (first) selected = first;
      }
    }
    const redraw = () => Potluck.render(root, payload, ctx);
    const board = el("div", { class: "belly-board", id: "board" },
      view.board.map((s) => space(payload, ctx, s, cards, redraw)), centre(payload));
    const screen = el("div", { class: "belly" });
    if (view.final_scores) {
      screen.append(el("div", { class: "notice good", id: "final" }, el("strong", { text: "Final wealth: " }),
        view.final_scores.map((s, i) => `${seatName(payload.table, i)} ${s}`).join(" · "), ". ", view.result));
    }
    screen.append(el("div", { class: "grid two" },
      el("div", {}, board),
      el("div", {}, ctx.readOnly ? null : movePanel(payload, ctx), cardPanel(payload, ctx), players(payload))));
    screen.append(seatsPanel(payload));
    root.append(screen);
  };
})();
