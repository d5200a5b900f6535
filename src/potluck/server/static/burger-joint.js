// Burger Joint's game screen: the bag and the production cubes in their areas, then the two
// development boards (publicity, basic restaurants, specialty diners, bistros) beside each
// player's cube storage. Legal moves are the pieces themselves; the rest explain on hover.
"use strict";

(() => {
  const { el, who, seatsPanel, actionButton, otherActions, saying, plural } = Potluck;
  const PHASES = {
    production: "Production: take cubes from the production areas",
    trading: "Trading: trade three cubes for one, use a bistro's ability, or go on",
    building: "Building: buy publicity, restaurants, diners and bistros",
    redraw: "Redraw: put cubes back and draw new ones",
    discard: "Discard down to the storage limit",
    over: "The game is over",
  };
  const ABILITIES = {
    redraw: "redraw cubes", "swap-two": "swap two cubes for one", extra: "one extra cube from the bag",
    "swap-one": "swap one cube", pick: "pick a cube from the bag", none: "no ability",
  };

  function cube(colour, extra) {
    return el("span", { class: `cube ${colour}`, title: colour, ...(extra || {}) });
  }

  function cubes(counts) {
    return Object.entries(counts).flatMap(([colour, n]) => Array.from({ length: n }, () => cube(colour)));
  }

  function cost(counts, either) {
    const parts = Object.entries(counts).map(([colour, n]) =>
      el("span", { class: "cost-part" }, Array.from({ length: n }, () => cube(colour, { class: `cube small ${colour}` }))));
    if (!either) return el("span", { class: "cost" }, parts);
    return el("span", { class: "cost" }, parts.flatMap((p, i) => (i ? [el("span", { class: "muted", text: " or " }), p] : [p])));
  }

  // A piece on a board that is also a move: a button when it is the viewer's board.
  function piece(payload, ctx, seat, action, attrs, ...children) {
    if (payload.seat !== seat || ctx.readOnly) return el("div", attrs, children);
    return actionButton(payload, ctx, action, { ...attrs, class: `${attrs.class || ""} piece` }, ...children);
  }

  function boardPanel(payload, ctx, seat) {
    const view = payload.view;
    const player = view.players[seat];
    const board = view.boards[seat];
    const colours = Object.keys(view.bag);
    const own = seat === view.seat;
    const track = board.publicity.track.map((points, i) => el("div", {
      class: `track-space${player.publicity === i + 1 ? " marker" : ""}${player.publicity > i ? " passed" : ""}`,
      title: `publicity ${i + 1}: ${points} VP`, text: String(points) }));
    const basics = board.basic.spaces.map((points, i) => el("div", {
      class: `basic-space${i < player.basics ? " built" : ""}`, title: `basic restaurant ${i + 1}: ${points} VP`, text: String(points) }));
    const diners = colours.map((colour) => {
      const built = player.diners.includes(colour);
      return piece(payload, ctx, seat, `diner ${colour}`, { class: `diner${built ? " built" : ""}`, "data-diner": colour },
        el("span", { class: "diner-name" }, cube(colour), ` ${colour} diner`),
        built ? el("span", { class: "built-mark", text: `built · ${board.diner_points} VP` }) : cost(board.diners[colour]));
    });
    const bistros = board.bistros.map((b) => {
      const built = player.bistros.includes(b.slot);
      const payWith = Object.keys(b.cost);
      const box = el("div", { class: `bistro${built ? " built" : ""}`, "data-bistro": b.slot },
        el("div", { class: "bistro-name", text: `${b.name}` }),
        el("div", { class: "muted", text: `${b.points} VP · ${ABILITIES[b.ability] || b.ability}` }),
        built ? el("div", { class: "built-mark", text: "built" }) : cost(b.cost, true));
      if (!built && own && !ctx.readOnly) {
        box.append(el("div", { class: "actions" }, payWith.map((colour) =>
          actionButton(payload, ctx, `bistro ${b.slot} from ${colour}`, { class: "secondary small" }, saying(payload, `bistro ${b.slot} from ${colour}`, `build with ${colour}`)))));
      }
      return box;
    });
    return el("section", {
      class: `panel dev-board ${board.side.toLowerCase()}${own ? " mine" : ""}${view.active === seat && view.phase !== "over" ? " active" : ""}`,
      id: `board-${seat}`, "data-seat": seat,
    },
      el("h2", {}, `${board.side} · ${who(payload, seat, true)}`,
        view.active === seat && view.phase !== "over" ? el("span", { class: "badge turn", text: "active" }) : null),
      el("div", { class: "score-line" },
        el("span", { class: "score", title: "scoring marker", text: `${player.score} VP` }),
        el("span", { class: "muted", text: ` scored · ${player.points_now} VP now · ${view.win_points} VP wins` })),
      el("div", { class: "storage" }, el("span", { class: "muted", text: "Storage: " }),
        player.cube_count ? cubes(player.cubes) : el("span", { class: "muted", text: "empty" })),
      el("p", { class: "muted small-print", text: `Production capacity ${player.capacity} · ${player.production.taken} of ${plural(player.production.owed, "production cube")} taken · ${plural(player.tokens_on_board, "token")} on the board` }),
      el("div", { class: "columns" },
        el("div", { class: "column" }, el("h3", { text: "Publicity" }), el("div", { class: "track" }, track),
          el("div", { class: "muted" }, "cost ", cost(board.publicity.cost)),
          own && !ctx.readOnly ? actionButton(payload, ctx, "publicity advance", { class: "secondary small" }, saying(payload, "publicity advance", "advance")) : null),
        el("div", { class: "column" }, el("h3", { text: "Basic restaurants" }), el("div", { class: "basics" }, basics),
          el("div", { class: "muted" }, "cost ", cost(board.basic.cost)),
          own && !ctx.readOnly ? actionButton(payload, ctx, "basic", { class: "secondary small" }, saying(payload, "basic", "build one")) : null)),
      el("h3", { text: "Specialty diners" }), el("div", { class: "diners" }, diners),
      el("h3", { text: "Upscale bistros" }), el("div", { class: "bistros" }, bistros));
  }

  function production(payload, ctx) {
    const view = payload.view;
    const areas = view.areas && Object.keys(view.areas).length ? view.areas : null;
    const takeable = (colour) => {
      const take = payload.legal.find((a) => a.action === `take ${colour}` || a.action === `pick ${colour}`);
      return take && !ctx.readOnly
        // a real button: Tab reaches it, Enter and Space take the cube, focus shows
        ? el("button", { type: "button", class: `cube big ${colour} live`, "data-action": take.action, title: take.label, "aria-label": take.label, onclick: () => ctx.act(take.action) })
        : cube(colour, { class: `cube big ${colour}` });
    };
    const pool = Object.entries(view.pool).filter(([, n]) => n > 0);
    const inArea = (name) => pool.filter(([colour]) => areas[name].includes(colour));
    const row = (entries) => entries.flatMap(([colour, n]) => Array.from({ length: n }, () => takeable(colour)));
    return el("section", { class: "felt", id: "production" },
      el("h2", { text: `Turn ${view.turn} · ${PHASES[view.phase] || view.phase}` }),
      el("div", { class: "bag", title: "the bag (anyone may count it)" }, el("span", { class: "label", text: "Bag" }),
        Object.entries(view.bag).map(([colour, n]) => el("span", { class: "bag-count" }, cube(colour), ` ${n}`))),
      pool.length ? (areas
        ? el("div", { class: "areas" }, ["general", "Burger", "Pizza"].map((name) =>
          el("div", { class: "area", "data-area": name }, el("div", { class: "label", text: name === "general" ? "General area" : `${name}'s area` }),
            el("div", { class: "pool" }, row(inArea(name))))))
        : el("div", { class: "area" }, el("div", { class: "label", text: "Production cubes" }), el("div", { class: "pool", id: "pool" }, row(pool))))
        : null,
      Object.values(view.redraw_aside).some((n) => n) ? el("p", {}, "Set aside by a redraw: ", cubes(view.redraw_aside)) : null,
      view.abilities_used.length ? el("p", { class: "muted", text: `Abilities used this turn: ${view.abilities_used.map((a) => ABILITIES[a] || a).join(", ")}` }) : null);
  }

  Potluck.renderers["burger-joint"] = (root, payload, ctx) => {
    const view = payload.view;
    const screen = el("div", { class: "burger" });
    // The result is the outcome banner's (potluck.js); a replay, which has none, says it here.
    if (view.result && ctx.readOnly) screen.append(el("div", { class: "notice good", id: "final", text: Potluck.says(payload, view.result) }));
    screen.append(production(payload, ctx));
    if (!ctx.readOnly && payload.seat !== null && payload.seat !== undefined) {
      const onPieces = new Set(payload.legal.map((a) => a.action).filter((a) =>
        /^(take|pick|diner|bistro|basic$|publicity advance$)/.test(a)));
      const moves = el("section", { class: "panel", id: "moves" }, el("h2", { text: "Your move" }),
        payload.legal.length
          ? [el("p", { class: "muted", text: onPieces.size ? "Click a glowing cube or a highlighted piece of your board." : "Choose:" }),
            otherActions(payload, ctx, onPieces)].filter(Boolean)
          : el("p", { class: "muted", id: "waiting", text: "Nothing to do now." }));
      screen.append(moves);
    }
    const order = view.seat === 1 ? [1, 0] : [0, 1];
    screen.append(el("div", { class: "grid halves boards" }, order.map((seat) => boardPanel(payload, ctx, seat))));
    screen.append(seatsPanel(payload));
    root.append(screen);
  };
})();
