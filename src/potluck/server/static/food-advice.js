// FoodAdvice's game screen: your kitchen (ingredients, product shape, name and tagline), the
// products on the table, the market board of shops and promotion channels with everyone's
// chips, and the customers who came shopping. Legal moves are the pieces; the rest say why.
"use strict";

(() => {
  const { el, who, says, does, seatsPanel, actionButton, otherActions, plural, listOf, seatNumber } = Potluck;
  const COLOURS = ["#d9480f", "#1c7ed6", "#2b8a3e", "#ae3ec9", "#f59f00", "#0c8599"];
  const PHASES = {
    exchange: "Ingredient exchange: offer up to three ingredients to a player (then send with done), or pass",
    respond: "Ingredients are offered to you: give as many back, one at a time, or decline",
    keep: "Keep three ingredients: discard the others",
    naming: "Name your product and write its tagline",
    voting: "Vote for the product you like best (not your own)",
    placing: "Place your chips on shops and promotion channels",
    events: "Play your event card",
    over: "The game is over",
  };
  const WHEN = {
    hashtag: (v) => `products with #${v}`,
    price_at_least: (v) => `products of ${v} F or more`,
    price_at_most: (v) => `products of ${v} F or less`,
    matches_at_least: (v) => `${v}+ hashtag matches`,
  };
  const KINDS = { extra: "extra customer", joker: "Joker" };
  let chosen = null;  // the ingredient picked to offer, kept across redraws

  function slug(text) {
    return text.toLowerCase().replace(/'/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  }

  // An ingredient's or a shop's name from its notation: the name seen on its card (any card
  // a view showed is remembered), else its words ("free-range-eggs" -> "Free Range Eggs").
  const known = {};
  function learn(view) {
    const cards = [...(view.you ? [...view.you.hand, ...(view.you.returned || [])] : []),
      ...(view.offer ? [...view.offer.ingredients, ...view.offer.given] : [])];
    for (const card of cards) if (card.ingredient && card.name) known[card.ingredient] = card.name;
    for (const shop of [...view.board, ...(view.shop_deck_bottom || [])]) known[shop.shop] = shop.name;
  }
  function words(id) {
    return known[id] || String(id).split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
  }

  // Money each seller took from the customers of a list of sales (price plus shop bonuses).
  function takings(sales) {
    const money = {};
    for (const s of sales) if (s.seller !== null && s.seller !== undefined) money[s.seller] = (money[s.seller] || 0) + (s.paid || 0) + (s.bonus || 0);
    return money;
  }

  function chip(seat, name) {
    return el("span", { class: "chip", style: `background:${COLOURS[seat % COLOURS.length]}`, title: name, text: seatNumber(seat) });
  }

  function ingredient(card, extra) {
    return el("div", { class: `ingredient ${card.category || ""}`, title: `${card.name}: ${card.category}, ${card.price} F, #${card.hashtag}`, ...(extra || {}) },
      el("span", { class: "ing-name", text: card.name }),
      el("span", { class: "ing-meta", text: `${card.price} F · #${card.hashtag}` }));
  }

  function kitchen(payload, ctx, redraw) {
    const view = payload.view;
    const you = view.you;
    if (!you) return null;
    const me = view.players[you.seat];
    const box = el("section", { class: "panel kitchen", id: "kitchen" }, el("h2", { text: "Your kitchen" }));
    const phase = view.phase;
    const legal = (action) => payload.legal.some((a) => a.action === action);
    box.append(el("p", { class: "muted" }, `${me.role} · `, me.shape ? `your product's shape: ${me.shape}` : "no shape dealt"));
    if (you.hand.length) {
      box.append(el("div", { class: "hand", id: "hand" }, you.hand.map((card) => {
        const id = card.ingredient;
        if (phase === "respond" && !ctx.readOnly) return actionButton(payload, ctx, `give ${id}`, { class: "ingredient-button" }, ingredient(card));
        if (phase === "keep" && !ctx.readOnly) return actionButton(payload, ctx, `discard ${id}`, { class: "ingredient-button" }, ingredient(card), el("span", { class: "verb", text: "discard" }));
        if (phase === "exchange" && !ctx.readOnly && payload.legal.some((a) => a.action.startsWith(`offer ${id} `))) {
          return el("button", { class: `ingredient-button${chosen === id ? " chosen" : ""}`, "data-ingredient": id, onclick: () => { chosen = id; redraw(); } }, ingredient(card));
        }
        return ingredient(card);
      })));
    } else {
      box.append(el("p", { class: "muted", text: "No ingredients in hand." }));
    }
    if (phase === "exchange" && chosen && !ctx.readOnly) {
      box.append(el("div", { class: "actions", id: "offer-to" }, view.players.filter((p) => p.seat !== you.seat).map((p) =>
        actionButton(payload, ctx, `offer ${chosen} to ${p.seat}`, {}, `Offer ${words(chosen)} to ${who(payload, p.seat)}`))));
    }
    const naming = payload.legal.find((a) => a.action.startsWith("name "));
    if (naming && !ctx.readOnly) {
      const [, name, tagline] = /^name "(.*)" \/ "(.*)"$/.exec(naming.action) || [null, "", ""];
      const nameBox = el("input", { name: "product-name", value: name, maxlength: "60", "aria-label": "product name" });
      const tagBox = el("input", { name: "tagline", value: tagline, maxlength: "80", "aria-label": "tagline" });
      box.append(el("form", { class: "naming", id: "naming", onsubmit: (event) => {
        event.preventDefault();
        ctx.act(`name "${nameBox.value.replace(/"/g, "'")}" / "${tagBox.value.replace(/"/g, "'")}"`);
      } },
      el("label", {}, "Name ", nameBox), el("label", {}, "Tagline ", tagBox),
      el("button", { type: "submit", "data-action": "name", text: "Present my product" })));
    } else if (you.name) {
      box.append(el("p", {}, el("strong", { text: you.name }), el("span", { class: "muted", text: ` — ${you.tagline || ""}` })));
    }
    if (you.event) box.append(el("div", { class: "event" }, el("strong", { text: `Event: ${you.event.event}` }), ` — ${says(payload, you.event.text)}`));
    if (you.held.length) box.append(el("p", { class: "muted", text: `Held face down: ${you.held.map((e) => e.event).join(", ")}.` }));
    if (you.vote !== null && you.vote !== undefined) box.append(el("p", { class: "muted", text: `You voted for ${Potluck.whose(payload, you.vote)} product.` }));
    if (legal("decline") || legal("pass") || legal("done")) box.append(el("p", { class: "muted", text: "Or use the buttons under “Your move”." }));
    return box;
  }

  function products(payload, ctx) {
    const view = payload.view;
    const current = view.products.filter((p) => p.round === view.round);
    const older = view.products.filter((p) => p.round !== view.round);
    const sold = {};
    for (const sale of [...view.log.flatMap((entry) => entry.sales), ...view.sales]) {
      if (sale.product !== undefined && sale.product !== null) sold[sale.product] = (sold[sale.product] || 0) + 1;
    }
    const card = (p) => {
      const vote = `vote ${p.owner}`;
      return el("div", { class: `product${p.owner === view.you?.seat ? " mine" : ""}`, "data-product": p.product, style: `--owner:${COLOURS[p.owner % COLOURS.length]}` },
        el("div", { class: "shape", text: p.shape }),
        el("div", { class: "product-name", text: p.name || "(not yet named)" }),
        p.tagline ? el("div", { class: "tagline", text: p.tagline }) : null,
        el("div", { class: "ingredients" }, p.ingredients.map((i) => {
          const remove = `remove ${i}`;
          return payload.legal.some((a) => a.action === remove) && !ctx.readOnly
            ? actionButton(payload, ctx, remove, { class: "small ing-chip" }, `✕ ${words(i)}`)
            : el("span", { class: "ing-chip", text: words(i) });
        })),
        el("div", { class: "product-foot" },
          el("span", { class: "price", text: `${p.price} F` }),
          el("span", { class: "tags", text: p.hashtags.map((t) => `#${t}`).join(" ") })),
        el("div", { class: "owner" }, chip(p.owner, who(payload, p.owner, true)), ` ${who(payload, p.owner, true)}`,
          view.players[p.owner].votes_received !== null && p.round === view.round ? ` · ${plural(view.players[p.owner].votes_received, "vote")}` : "",
          sold[p.product] ? el("span", { class: "sold", title: "customers who bought it so far", text: `sold ${sold[p.product]}` }) : null),
        view.phase === "voting" && !ctx.readOnly && p.owner !== view.you?.seat && view.you ? actionButton(payload, ctx, vote, { class: "small" }, "Vote for this") : null);
    };
    return el("section", { class: "panel", id: "products" }, el("h2", { text: `Products of round ${view.round}` }),
      current.length ? el("div", { class: "products" }, current.map(card)) : el("p", { class: "muted", text: "No product presented yet this round." }),
      older.length ? el("details", {}, el("summary", { text: `Earlier products (${older.length})` }), el("div", { class: "products" }, older.map(card))) : null);
  }

  function market(payload, ctx) {
    const view = payload.view;
    // Between rounds the shops go back to their deck: show where the chips of the last round were.
    const past = !view.board.length && view.log.length && view.phase !== "placing" ? view.log[view.log.length - 1] : null;
    const placed = view.players.map((p) => past
      ? { seat: p.seat, shops: past.shops[p.seat], channels: past.channels[p.seat], invest: past.invest[p.seat] >= 0 ? past.invest[p.seat] : null }
      : p);
    const chipsOn = (test) => placed.filter(test).map((p) => chip(p.seat, who(payload, p.seat, true)));
    const shops = view.board.map((shop) => {
      const body = [
        el("div", { class: "shop-name", text: shop.name }),
        el("div", { class: "shop-rule", text: shop.rule || `+${shop.bonus} F for each sale of ${(WHEN[shop.when] || (() => "some products"))(shop.value)}` }),
        el("div", { class: "chips" }, chipsOn((p) => p.shops.includes(shop.shop))),
      ];
      return view.phase === "placing" && view.you && !ctx.readOnly
        ? actionButton(payload, ctx, `shop ${shop.shop}`, { class: "shop piece", "data-shop": shop.shop }, ...body)
        : el("div", { class: "shop", "data-shop": shop.shop }, body);
    });
    const channels = view.channels.map((name) => {
      const id = slug(name);
      const body = [el("div", { class: "shop-name", text: name }), el("div", { class: "chips" }, chipsOn((p) => p.channels.includes(id)))];
      if (id === "mabius") {
        const invests = placed.filter((p) => p.invest !== null).map((p) => `${who(payload, p.seat, true)} in ${who(payload, p.invest)}`);
        body.push(el("div", { class: "muted", text: invests.length ? `invested: ${invests.join(", ")}` : "invest in a rival's product" }));
        if (view.phase === "placing" && view.you && !ctx.readOnly) {
          body.push(el("div", { class: "actions" }, view.players.filter((p) => p.seat !== view.you.seat).map((p) =>
            actionButton(payload, ctx, `invest ${p.seat}`, { class: "small" }, `Invest in ${who(payload, p.seat)}`))));
        }
        return el("div", { class: "channel mabius", "data-channel": id }, body);
      }
      return view.phase === "placing" && view.you && !ctx.readOnly
        ? actionButton(payload, ctx, `promote ${id}`, { class: "channel piece", "data-channel": id }, ...body)
        : el("div", { class: "channel", "data-channel": id }, body);
    });
    const pastShops = past ? [...new Set(past.shops.flat())].map((id) =>
      el("div", { class: "shop", "data-shop": id }, el("div", { class: "shop-name past-name", text: words(id) }), el("div", { class: "chips" }, chipsOn((p) => p.shops.includes(id))))) : [];
    return el("section", { class: "panel", id: "market" }, el("h2", { text: past ? `The market of round ${past.round}` : "The market" }),
      past ? el("p", { class: "muted", text: "Where everyone's chips were; the shops go back to their deck and new ones are laid out when chips are placed." }) : null,
      el("h3", { text: "Shops" }),
      shops.length ? el("div", { class: "shops" }, shops)
        : pastShops.length ? el("div", { class: "shops past" }, pastShops)
        : el("p", { class: "muted", text: "The shops are laid out when chips are placed." }),
      el("h3", { text: "Promotion channels" }), el("div", { class: `channels${past ? " past" : ""}` }, channels));
  }

  // One customer card: who they are, their budget, the hashtags they like and their
  // favourite shapes; the hashtags the product they bought shares with them are lit.
  function customerCard(payload, sale) {
    const view = payload.view;
    const face = (view.customer_cards || {})[sale.customer];
    const product = sale.product !== undefined && sale.product !== null ? view.products[sale.product] : null;
    const liked = new Set(product ? product.hashtags : []);
    const bought = sale.seller !== null && sale.seller !== undefined;
    return el("div", { class: `customer${bought ? "" : " left"}`, "data-customer": sale.customer },
      el("div", { class: "cust-head" },
        el("strong", { text: sale.customer }),
        face ? el("span", { class: "budget", title: `${face.category} budget`, text: `${face.budget} F` }) : null),
      face ? el("div", { class: "cust-prefs" },
        el("span", { class: "muted", text: `${face.gender === "female" ? "♀" : "♂"} ${face.category}` }),
        face.hashtags.map((t) => el("span", { class: `tag${liked.has(t) ? " hit" : ""}`, text: `#${t}` })),
        el("span", { class: "muted", title: face.shapes.length === 1 ? "favourite shape" : "favourite shapes", text: `♥ ${face.shapes.join(", ")}` })) : null,
      el("div", { class: "cust-result" },
        sale.kind && sale.kind !== "regular" ? el("span", { class: "badge", text: KINDS[sale.kind] || Potluck.words(sale.kind) }) : null,
        bought
          ? [" bought ", product ? el("em", { text: product.name || product.shape }) : "", " from ", chip(sale.seller, who(payload, sale.seller, true)),
            ` ${who(payload, sale.seller)}: ${sale.paid} F`, sale.bonus ? ` and ${sale.bonus} F of shop bonus` : ""]
          : " bought nothing",
        sale.reason ? el("div", { class: "muted why-text", text: says(payload, sale.reason) }) : null));
  }

  function customers(payload) {
    const view = payload.view;
    const last = view.log.length ? view.log[view.log.length - 1] : null;
    const sales = view.sales.length ? view.sales : last ? last.sales : [];
    const round = view.sales.length || !last ? view.round : last.round;
    const earlier = view.log.filter((entry) => entry !== last || view.sales.length);
    return el("section", { class: "panel", id: "customers" }, el("h2", { text: sales.length ? `Customers of round ${round}` : "Customers" }),
      sales.length ? el("div", { class: "customers" }, sales.map((sale) => customerCard(payload, sale)))
        : el("p", { class: "muted", text: "Customers come shopping at the end of each round." }),
      el("p", { class: "muted", text: `${plural(view.customers_played.length, "customer card")} played · ${view.decks.customers} left` }),
      history(payload, earlier.length ? view.log : []));
  }

  // The finished rounds: what each player took from customers, and the votes.
  function history(payload, log) {
    if (!log.length) return null;
    const view = payload.view;
    return el("details", { id: "history" }, el("summary", { text: `Takings of the rounds played (${log.length})` }),
      el("div", { class: "scroll" }, el("table", { class: "data" },
        el("thead", {}, el("tr", {}, el("th", { text: "Round" }), view.players.map((p) => el("th", {}, chip(p.seat, who(payload, p.seat, true)), ` ${who(payload, p.seat, true)}`)))),
        el("tbody", {}, log.map((entry) => {
          const money = takings(entry.sales);
          const votes = view.players.map((p) => entry.votes.filter((v) => v === p.seat).length);
          return el("tr", {}, el("td", { text: String(entry.round) }),
            view.players.map((p) => el("td", { text: `${money[p.seat] || 0} F · ${plural(votes[p.seat], "vote")}` })));
        })))));
  }

  function players(payload) {
    const view = payload.view;
    return el("section", { class: "panel", id: "players" }, el("h2", { text: "Players" }),
      el("div", { class: "fa-players" }, view.players.map((p) => el("div", { class: `fa-player${p.seat === view.you?.seat ? " me" : ""}`, style: `--owner:${COLOURS[p.seat % COLOURS.length]}` },
        el("div", { class: "name" }, chip(p.seat, who(payload, p.seat, true)), ` ${who(payload, p.seat, true)}`,
          p.to_act && view.phase !== "over" ? el("span", { class: "badge turn", text: "to act" }) : null,
          payload.table.seats[p.seat].kind === "bot" ? el("span", { class: "badge bot", text: "bot" }) : null),
        el("div", { class: "stats" },
          el("span", { class: "money", text: `${p.money} F` }),
          el("span", { text: p.role }),
          el("span", { title: "chips", text: `● ${p.chips}` }),
          el("span", { class: "muted", text: plural(p.hand_size, "ingredient") }),
          p.held_events ? el("span", { class: "muted", text: `${plural(p.held_events, "event")} held` }) : null)))));
  }

  // This round so far: the offers and their answers, and the events played.
  function round(payload) {
    const view = payload.view;
    const items = [
      ...view.trades.map((t) => (t.given && t.given.length
        ? `${does(payload, t.from, "gave")} ${listOf(t.offered.map(words))} to ${who(payload, t.to)} for ${listOf(t.given.map(words))}.`
        : `${does(payload, t.to, "declined")} ${Potluck.whose(payload, t.from)} ${listOf(t.offered.map(words))}.`)),
      ...view.events.map((e) => `${who(payload, e.seat, true)}${e.event ? ` played ${e.event}` : ""}: ${says(payload, e.effect)}.`),
    ];
    return items.length ? el("ul", { class: "happened", id: "happened" }, items.map((text) => el("li", { text }))) : null;
  }

  // The end: everyone by foodcoins, best first, and the tie-break if there was one.
  function standings(payload) {
    const view = payload.view;
    const order = view.players.map((p) => p.seat).sort((a, b) => view.players[b].money - view.players[a].money);
    const tie = view.tiebreak;
    const top = Math.max(...view.players.map((p) => p.money));
    const winners = tie && tie.winner >= 0 ? [tie.winner] : view.players.filter((p) => p.money === top).map((p) => p.seat);
    return el("section", { class: "notice good standings", id: "final" },
      el("strong", { text: "Final foodcoins" }),
      el("ol", {}, order.map((s) => el("li", { class: winners.includes(s) ? "winner" : null },
        chip(s, who(payload, s, true)), el("span", { class: "who", text: ` ${who(payload, s, true)} ` }),
        el("span", { class: "money", text: `${view.players[s].money} F` })))),
      tie ? el("p", { class: "muted", text: `A tie between ${listOf(tie.tied.map((s) => who(payload, s)))}: ${listOf(tie.customers) || "no customer"} came; ${tie.winner >= 0 ? `${does(payload, tie.winner, "made")} the sale` : "nobody sold"}.` }) : null);
  }

  Potluck.renderers["food-advice"] = (root, payload, ctx) => {
    const view = payload.view;
    learn(view);
    const offerable = (id) => payload.legal.some((a) => a.action.startsWith(`offer ${id} to`));
    if (view.phase !== "exchange" || (chosen && !view.you?.hand.some((c) => c.ingredient === chosen))) chosen = null;
    if ((!chosen || !offerable(chosen)) && view.phase === "exchange" && view.you && !ctx.readOnly) {
      const first = payload.legal.map((a) => /^offer (\S+) to/.exec(a.action)).find(Boolean);
      chosen = first ? first[1] : null;
    }
    const redraw = () => Potluck.render(root, payload, ctx);
    const screen = el("div", { class: "food" });
    const offer = view.offer;
    const playing = view.playing;
    screen.append(el("section", { class: "felt", id: "round" },
      el("h2", { text: `Round ${view.round} of ${view.rounds} · ${PHASES[view.phase] || Potluck.words(view.phase)}` }),
      offer ? el("p", { class: "offer", text: `${offer.sent ? does(payload, offer.from, "offers") : `${who(payload, offer.from, true)} ${who(payload, offer.from) === "you" ? "are" : "is"} putting together an offer of`} ${listOf(offer.ingredients.map((c) => `${c.name} (${c.price} F, #${c.hashtag})`))} to ${who(payload, offer.to)}` +
        (offer.given.length ? `; given back so far: ${listOf(offer.given.map((c) => c.name))}` : "") + "." }) : null,
      playing ? el("p", { class: "offer", text: `${does(payload, playing.seat, "plays")} the event ${playing.event}: ${says(payload, playing.text)}` }) : null,
      el("div", { class: "scoreline", id: "scoreline" }, view.players.map((p) => el("span", { class: `score${view.acting.includes(p.seat) ? " acting" : ""}` },
        chip(p.seat, who(payload, p.seat, true)), ` ${who(payload, p.seat, true)} `, el("strong", { text: `${p.money} F` })))),
      round(payload),
      el("p", { class: "status", text: `Decks: ${plural(view.decks.ingredients, "ingredient")}, ${plural(view.decks.events, "event")}` })));
    if (view.phase === "over") screen.prepend(standings(payload));
    const left = el("div", {});
    if (!ctx.readOnly && view.you) {
      const onPieces = new Set(payload.legal.map((a) => a.action).filter((a) =>
        /^(give|discard|offer|name|vote|shop|promote|invest|remove) /.test(a)));
      const rest = otherActions(payload, ctx, onPieces);
      const hint = onPieces.size ? `Use the highlighted pieces below${rest ? ", or:" : "."}` : "Choose:";
      left.append(el("section", { class: "panel", id: "moves" }, el("h2", { text: "Your move" }),
        payload.legal.length
          ? [el("p", { class: "muted", text: hint }), rest].filter(Boolean)
          : el("p", { class: "muted", id: "waiting", text: "Nothing to do now." })));
    }
    left.append(...[kitchen(payload, ctx, redraw), products(payload, ctx), market(payload, ctx)].filter(Boolean));
    screen.append(el("div", { class: "grid two" }, left, el("div", {}, players(payload), customers(payload))));
    screen.append(seatsPanel(payload));
    root.append(screen);
  };
})();
