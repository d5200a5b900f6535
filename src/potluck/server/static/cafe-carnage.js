// Café Carnage's game screen: the table with its diners, your menu and orders, your ballot
// cards, and the bill of each night. Draws only from the seat's view (see potluck.js).
"use strict";

(() => {
  const { el, seatsPanel, who, does, listOf, plural, actionButton, otherActions } = Potluck;
  const PHASES = {
    starter: "Take orders: choose a starter",
    main: "Take orders: choose a main",
    dessert: "Take orders: choose a dessert",
    ballot: "Secret ballot: play an action card",
    over: "The week is over",
  };
  // A sentence's stop, unless it ends with a card's own "!" ("You played RUN!").
  const sentence = (text) => (/[!?]$/.test(text) ? text : `${text}.`);

  const CARDS = {
    split: ["Split the Bill Evenly", "split"],
    separately: ["Each Pay Separately", "separately"],
    run: ["RUN!", "run"],
  };

  // A card that is a move: live if legal, else it says why when pressed (potluck.js).
  function actionCard(payload, ctx, action, className, children) {
    return actionButton(payload, ctx, action, { class: className }, children);
  }

  function dishCard(payload, ctx, dish) {
    return actionCard(payload, ctx, dish.dish, `dish ${dish.course}`, [
      el("span", { class: "course", text: dish.course }),
      el("span", { class: "title", text: dish.name }),
      el("span", { class: "price", text: `$${dish.value}` }),
    ]);
  }

  function diners(payload) {
    const view = payload.view;
    const last = view.log.length ? view.log[view.log.length - 1] : null;
    return el("div", { class: "diners", id: "diners" }, view.players.map((p) => {
      const meal = last ? last.meals[p.seat] : null;
      let status = "";
      if (view.phase !== "over") status = p.waiting_for ? "choosing…" : "ready";
      return el("div", { class: `diner${p.seat === view.seat ? " me" : ""}`, "data-seat": p.seat },
        el("div", { class: "name" }, who(payload, p.seat, true),
          payload.table.seats[p.seat].kind === "bot" ? el("span", { class: "badge bot", text: "bot" }) : null,
          payload.table.seats[p.seat].taken_over ? el("span", { class: "badge away", text: "a bot plays" }) : null),
        el("div", { class: "stats" },
          el("span", { title: "money", text: `$${p.money}` }),
          el("span", { title: "Gourmet Points", text: `★ ${p.points}` }),
          el("span", { title: "action cards in hand", text: `🂠 ${p.hand_size}` }),
          p.has_run_card ? null : el("span", { class: "escaped", title: "ran from a bill and got away: the RUN! card is used up", text: "got away once (no RUN! card)" }),
          p.iou ? el("span", { class: "iou", title: "holds an IOU: no money bonus at the end of the game", text: "IOU" }) : null),
        el("div", { class: "status", text: status }),
        meal ? el("div", { class: "plate", title: `round ${last.round}` },
          `Last night: ${meal.dishes.map((d) => d.name).join(", ")} ($${meal.cost})`) : null);
    }));
  }

  function bill(round, payload) {
    const name = (s) => who(payload, s);
    const names = (seats) => listOf(seats.map((s, i) => who(payload, s, i === 0)));
    const verdict = [];
    if (round.runners.length) {
      verdict.push(`${names(round.runners)} ran from the bill.`);
      if (round.caught.length) {
        verdict.push(`${names(round.caught)} ${round.caught.length === 1 && name(round.caught[0]) !== "you" ? "was" : "were"} caught and paid the runners' $${round.runners_bill}${round.caught.length > 1 ? " between them" : ""}.`);
      }
      const away = round.runners.filter((s) => !round.caught.includes(s));
      if (away.length) verdict.push(`${names(away)} got away.`);
    } else {
      verdict.push("Nobody ran.");
    }
    if (round.bill) verdict.push(`The table voted ${round.votes.split} to ${round.votes.separately} to ${round.bill === "split" ? "split the bill evenly" : "pay separately: each paid for their own meal"}.`);
    return el("div", { class: "bill", "data-round": round.round },
      el("h3", { text: `The bill, night ${round.round}` }),
      el("p", { class: "verdict", text: verdict.join(" ") }),
      round.your_card ? el("p", { class: "muted", text: sentence(`You played ${CARDS[round.your_card][0]}`) }) : null,
      el("div", { class: "scroll" }, el("table", { class: "data" },
        // the meal in one column, a dish a line: the whole bill fits half a wide screen
        el("thead", {}, el("tr", {}, ["Diner", "Meal"].map((h) => el("th", { text: h })),
          ["Cost", "Scored", "Paid", "IOUs"].map((h) => el("th", { class: "num", text: h })))),
        el("tbody", {}, round.meals.map((m) => el("tr", {},
          el("td", {}, who(payload, m.seat, true), round.runners.includes(m.seat) ? el("span", { class: "badge away", text: round.caught.includes(m.seat) ? "ran, caught" : "ran, got away" }) : null),
          el("td", { class: "meal" }, m.dishes.map((d) => el("div", { text: `${d.name} ($${d.value})` }))),
          el("td", { class: "num", text: `$${m.cost}` }),
          el("td", { class: "num", text: `+${m.scored}` }),
          el("td", { class: "num", text: `$${round.paid[m.seat]}` }),
          el("td", { class: "num", text: round.iou_loans[m.seat] ? String(round.iou_loans[m.seat]) : "" })))))));
  }

  function yourPanel(payload, ctx) {
    const view = payload.view;
    const you = view.you;
    const box = el("section", { class: "panel", id: "you" });
    if (!you) {
      box.append(el("p", { class: "muted", text: "Spectators see the table and the bills; menus, orders and ballots stay secret." }));
      return box;
    }
    const ordering = ["starter", "main", "dessert"].includes(view.phase);
    box.append(el("h2", { text: PHASES[view.phase] || Potluck.words(view.phase) }));
    if (ordering && you.menu.length) {
      box.append(el("h3", { text: `Your ${view.phase} menu` }),
        el("div", { class: "cards", id: "menu" }, you.menu.map((d) => dishCard(payload, ctx, d))));
    }
    box.append(el("h3", { text: "Your order tonight" }),
      el("div", { class: "order-slots", id: "order" }, ["starter", "main", "dessert"].map((c) =>
        el("div", { class: "slot" }, el("div", { class: "muted", text: c }), you.order[c] ? `${you.order[c].name} ($${you.order[c].value})` : "—"))));
    box.append(el("h3", { text: "Your action cards" }),
      el("div", { class: "cards", id: "hand" }, Object.entries(CARDS).map(([card, [title, cls]]) =>
        actionCard(payload, ctx, card, `ballot ${cls}`, [
          el("span", { text: title }),
          el("span", { class: "count", text: `${you.hand[card] || 0} in hand` }),
        ]))));
    if (you.card) box.append(el("p", { class: "muted", text: sentence(`Played face down: ${CARDS[you.card][0]}`) }));
    // any legal action the cards above do not show (none today) still gets a button
    const shown = new Set([...(ordering ? you.menu.map((d) => d.dish) : []), ...Object.keys(CARDS)]);
    const others = otherActions(payload, ctx, shown);
    if (others) box.append(others);
    return box;
  }

  Potluck.renderers["cafe-carnage"] = (root, payload, ctx) => {
    const view = payload.view;
    const screen = el("div", { class: "cafe" });
    screen.append(el("section", { class: "felt", id: "table" },
      el("h2", {}, `Night ${view.round} of ${view.rounds} · ${PHASES[view.phase] || Potluck.words(view.phase)}`),
      el("p", { class: "status" },
        `Decks: ${view.decks.starter} starters, ${view.decks.main} mains, ${view.decks.dessert} desserts · ` +
        `${plural(view.guards, "guard")} at the door` +
        (view.options.no_repeat_dishes ? " · no dish twice a week" : "")),
      diners(payload)));
    const nights = view.log.slice().reverse();
    const bills = el("section", { class: "panel", id: "bills" },
      nights.length ? bill(nights[0], payload) : el("p", { class: "muted", text: "No bill yet: the first night is being ordered." }),
      nights.length > 1 ? el("details", {}, el("summary", { text: "Earlier nights" }), nights.slice(1).map((r) => bill(r, payload))) : null);
    if (view.final_scores) {
      bills.prepend(el("div", { class: "notice good", id: "final" },
        el("strong", { text: "Final scores: " }),
        view.final_scores.map((s, i) => `${who(payload, i, i === 0)} ${s}`).join(" · "), "."));
    }
    screen.append(el("div", { class: "grid halves" }, el("div", {}, yourPanel(payload, ctx)), el("div", {}, bills)));
    screen.append(seatsPanel(payload));
    root.append(screen);
  };
})();
