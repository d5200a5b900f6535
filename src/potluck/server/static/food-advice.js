// FoodAdvice's game screen: your kitchen (ingredients, product shape, name and tagline), the
// products on the table, the market board of shops and promotion channels with everyone's
// chips, and the customers who came shopping. Legal moves are the pieces; the rest say why.
"use strict";

(() => {
  const { el, seatName, seatsPanel, actionButton, otherActions } = Potluck;
  const COLOURS = ["#d9480f", "#1c7ed6", "#2b8a3e", "#ae3ec9", "#f59f00", "#0c8599"];
  const PHASES = {
    exchange: "Ingredient exchange: offer an ingredient to a player, or pass",
    respond: "An ingredient is offered to you: give one back, or decline",
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
  let chosen = null;  // the ingredient picked to offer, kept across redraws

  function slug(text) {
    return text.toLowerCase().replace(/'/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  }

  function chip(seat, table) {
    return el("span", { class: "chip", style: `background:${COLOURS[seat % COLOURS.length]}`, title: seatName(table, seat), text: String(seat) });
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
    box.append(el("p", { class: "muted" }, `${me.role} · `, me.shape ? `product shape: ${me.shape}` : "no shape dealt"));
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
        actionButton(payload, ctx, `offer ${chosen} to ${p.seat}`, {}, `Offer to ${seatName(payload.table, p.seat)}`))));
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
    if (you.event) box.append(el("div", { class: "event" }, el("strong", { text: `Event: ${you.event.event}` }), ` — ${you.event.text}`));
    if (you.held.length) box.append(el("p", { class: "muted", text: `Held face down: ${you.held.map((e) => e.event).join(", ")}` }));
    if (you.vote !== null && you.vote !== undefined) box.append(el("p", { class: "muted", text: `You voted for ${seatName(payload.table, you.vote)}'s product.` }));
    if (legal("decline") || legal("pass") || legal("done")) box.append(el("p", { class: "muted", text: "Or use the buttons under “Your move”." }));
    return box;
  }

  function products(payload, ctx) {
    const view = payload.view;
    const current = view.products.filter((p) => p.round === view.round);
    const older = view.products.filter((p) => p.round !== view.round);
    const card = (p) => {
      const vote = `vote ${p.owner}`;
      return el("div", { class: `product${p.owner === view.you?.seat ? " mine" : ""}`, "data-product": p.product, style: `--owner:${COLOURS[p.owner % COLOURS.length]}` },
        el("div", { class: "shape", text: p.shape }),
        el("div", { class: "product-name", text: p.name || "(not yet named)" }),
        p.tagline ? el("div", { class: "tagline", text: p.tagline }) : null,
        el("div", { class: "ingredients" }, p.ingredients.map((i) => {
          const remove = `remove ${i}`;
          return payload.legal.some((a) => a.action === remove) && !ctx.readOnly
            ? actionButton(payload, ctx, remove, { class: "small ing-chip" }, `✕ ${i.replace(/-/g, " ")}`)
            : el("span", { class: "ing-chip", text: i.replace(/-/g, " ") });
        })),
        el("div", { class: "product-foot" },
          el("span", { class: "price", text: `${p.price} F` }),
          el("span", { class: "tags", text: p.hashtags.map((t) => `#${t}`).join(" ") })),
        el("div", { class: "owner" }, chip(p.owner, payload.table), ` ${seatName(payload.table, p.owner)}`,
          view.players[p.owner].votes_received !== null && p.round === view.round ? ` · ${view.players[p.owner].votes_received} vote(s)` : ""),
        view.phase === "voting" && !ctx.readOnly && p.owner !== view.you?.seat && view.you ? actionButton(payload, ctx, vote, { class: "small" }, "Vote for this") : null);
    };
    return el("section", { class: "panel", id: "products" }, el("h2", { text: `Products of round ${view.round}` }),
      current.length ? el("div", { class: "products" }, current.map(card)) : el("p", { class: "muted", text: "No product presented yet this round." }),
      older.length ? el("details", {}, el("summary", { text: `Earlier products (${older.length})` }), el("div", { class: "products" }, older.map(card))) : null);
  }

  function market(payload, ctx) {
    const view = payload.view;
    const chipsOn = (test) => view.players.filter(test).map((p) => chip(p.seat, payload.table));
    const shops = view.board.map((shop) => {
      const body = [
        el("div", { class: "shop-name", text: shop.name }),
        el("div", { class: "shop-rule", text: `+${shop.bonus} F for ${(WHEN[shop.when] || ((v) => `${shop.when} ${v}`))(shop.value)}` }),
        el("div", { class: "muted", text: `shapes: ${shop.shapes.join(", ")}` }),
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
        const invests = view.players.filter((p) => p.invest !== null).map((p) => `${seatName(payload.table, p.seat)} → ${seatName(payload.table, p.invest)}`);
        body.push(el("div", { class: "muted", text: invests.length ? `invested: ${invests.join(", ")}` : "invest in a rival's product" }));
        if (view.phase === "placing" && view.you && !ctx.readOnly) {
          body.push(el("div", { class: "actions" }, view.players.filter((p) => p.seat !== view.you.seat).map((p) =>
            actionButton(payload, ctx, `invest ${p.seat}`, { class: "small" }, `in ${seatName(payload.table, p.seat)}`))));
        }
        return el("div", { class: "channel mabius", "data-channel": id }, body);
      }
      return view.phase === "placing" && view.you && !ctx.readOnly
        ? actionButton(payload, ctx, `promote ${id}`, { class: "channel piece", "data-channel": id }, ...body)
        : el("div", { class: "channel", "data-channel": id }, body);
    });
    return el("section", { class: "panel", id: "market" }, el("h2", { text: "The market" }),
      el("h3", { text: "Shops" }),
      shops.length ? el("div", { class: "shops" }, shops) : el("p", { class: "muted", text: "The shops are laid out when chips are placed." }),
      el("h3", { text: "Promotion channels" }), el("div", { class: "channels" }, channels));
  }

  function customers(payload) {
    const view = payload.view;
    const last = view.log.length ? view.log[view.log.length - 1] : null;
    const sales = view.sales.length ? view.sales : last ? last.sales : [];
    return el("section", { class: "panel", id: "customers" }, el("h2", { text: "Customers" }),
      sales.length ? el("ul", { class: "sales" }, sales.map((s) => el("li", {},
        el("strong", { text: s.customer }), s.kind && s.kind !== "regular" ? ` (${s.kind})` : "",
        s.seller === null || s.seller === undefined ? el("span", { class: "muted", text: ` bought nothing: ${s.reason}` })
          : [" bought from ", chip(s.seller, payload.table), ` ${seatName(payload.table, s.seller)} for ${s.paid} F`, s.bonus ? ` (+${s.bonus} bonus)` : "", el("span", { class: "muted", text: ` — ${s.reason}` })])))
        : el("p", { class: "muted", text: "Customers come shopping at the end of each round." }),
      el("p", { class: "muted", text: `${view.customers_played.length} customer card(s) played · ${view.decks.customers} left` }));
  }

  function players(payload) {
    const view = payload.view;
    return el("section", { class: "panel", id: "players" }, el("h2", { text: "Players" }),
      el("div", { class: "fa-players" }, view.players.map((p) => el("div", { class: `fa-player${p.seat === view.you?.seat ? " me" : ""}`, style: `--owner:${COLOURS[p.seat % COLOURS.length]}` },
        el("div", { class: "name" }, chip(p.seat, payload.table), ` ${seatName(payload.table, p.seat)}`,
          p.to_act && view.phase !== "over" ? el("span", { class: "badge turn", text: "to act" }) : null,
          payload.table.seats[p.seat].kind === "bot" ? el("span", { class: "badge bot", text: "bot" }) : null),
        el("div", { class: "stats" },
          el("span", { class: "money", text: `${p.money} F` }),
          el("span", { text: p.role }),
          el("span", { title: "chips", text: `● ${p.chips}` }),
          el("span", { class: "muted", text: `${p.hand_size} ingredient(s)` }),
          p.held_events ? el("span", { class: "muted", text: `${p.held_events} event(s) held` }) : null)))));
  }

  Potluck.renderers["food-advice"] = (root, payload, ctx) => {
    const view = payload.view;
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
      el("h2", { text: `Round ${view.round} of ${view.rounds} · ${PHASES[view.phase] || view.phase}` }),
      offer ? el("p", { class: "offer", text: `${seatName(payload.table, offer.from)} offers ${offer.ingredient.name} (${offer.ingredient.price} F, #${offer.ingredient.hashtag}) to ${seatName(payload.table, offer.to)}` }) : null,
      playing ? el("p", { class: "offer", text: `${seatName(payload.table, playing.seat)} plays the event ${playing.event}: ${playing.text}` }) : null,
      el("p", { class: "status", text: `Waiting for ${view.acting.map((s) => seatName(payload.table, s)).join(", ") || "nobody"} · decks: ${view.decks.ingredients} ingredients, ${view.decks.events} events` })));
    const left = el("div", {});
    if (!ctx.readOnly && view.you) {
      const onPieces = new Set(payload.legal.map((a) => a.action).filter((a) =>
        /^(give|discard|offer|name|vote|shop|promote|invest|remove) /.test(a)));
      const rest = otherActions(payload, ctx, onPieces);
      const hint = onPieces.size ? `Use the highlighted pieces below${rest ? ", or:" : "."}` : "Choose:";
      left.append(el("section", { class: "panel", id: "moves" }, el("h2", { text: "Your move" }),
        payload.legal.length
          ? [el("p", { class: "muted", text: hint }), rest].filter(Boolean)
          : el("p", { class: "muted", id: "waiting", text: payload.waiting || "Nothing to do now." })));
    }
    left.append(...[kitchen(payload, ctx, redraw), products(payload, ctx), market(payload, ctx)].filter(Boolean));
    screen.append(el("div", { class: "grid two" }, left, el("div", {}, players(payload), customers(payload))));
    screen.append(seatsPanel(payload));
    root.append(screen);
  };
})();
