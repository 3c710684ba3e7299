/**
 * `privnet-access show --format html`: one self-contained page (no script, no external resource) with a picture
 * of the account — each group a box holding its peers, network resources in their network's box, an arrow for
 * every pair where traffic flows (both ways: one line with two heads; colour by what flows) — and the same
 * access as a table below it, per peer, with the policy and rule of each line.
 *
 * A peer in several groups is drawn in its first group (by the account's group order) and its other groups are
 * named under it. Past {@link MAX_NODES} peers and resources, arrows between every pair no longer read: the picture
 * becomes a matrix of groups (rows: where traffic starts; columns: groups and networks it reaches), each cell
 * shaded by the number of access lines between them and coloured by what flows. The table lists at most
 * {@link MAX_ROWS} lines (`--format json` has them all).
 */
import { groupsByPeer, guardText, type AccessLine, type Account, type PublishedLine } from "./report";
import { llmRuleText, modelsText, type LlmView } from "./llm";

export const MAX_NODES = 80;
export const MAX_ROWS = 2000;

const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

interface Node {
  key: string;
  label: string;
  sub: string;
  kind: "peer" | "resource";
  x: number;
  y: number;
}

interface Box {
  title: string;
  kind: "group" | "network" | "none";
  nodes: Node[];
  x: number;
  y: number;
  w: number;
  h: number;
}

const NODE_W = 170;
const NODE_H = 40;
const GAP = 12;
const HEAD = 34;
const PAD = 16;
const BOX_GAP_X = 170;
const BOX_GAP_Y = 70;

function colourOf(traffic: string): string {
  if (traffic.startsWith("all")) return "#7c3aed";
  if (traffic.startsWith("tcp")) return "#2563eb";
  if (traffic.startsWith("udp")) return "#0d9488";
  if (traffic.startsWith("icmp")) return "#d97706";
  return "#6b7280";
}

/** The boxes of the picture: groups with their peers, networks with their resources. */
function boxesOf(account: Account, lines: readonly AccessLine[]): Box[] {
  const s = account.snapshot;
  const boxes: Box[] = [];
  const placed = new Set<string>();
  const groupNames = groupsByPeer(s);
  for (const g of s.groups) {
    if (g.all) continue;
    const members = g.peers.filter((id) => !placed.has(id));
    if (!g.peers.length) continue;
    const nodes: Node[] = members.map((id) => {
      placed.add(id);
      const p = s.peers.find((x) => x.id === id);
      const others = (groupNames.get(id) ?? []).filter((n) => n !== g.name);
      return {
        key: `peer:${id}`,
        label: p?.name ?? id,
        sub: `${p?.ip ?? ""}${others.length ? ` · also ${others.join(", ")}` : ""}`,
        kind: "peer" as const,
        x: 0,
        y: 0,
      };
    });
    boxes.push({
      title: `group ${g.name} (${g.peers.length})`,
      kind: "group",
      nodes,
      x: 0,
      y: 0,
      w: 0,
      h: 0,
    });
  }
  const loose = s.peers.filter((p) => !placed.has(p.id));
  if (loose.length)
    boxes.push({
      title: "in no group but All",
      kind: "none",
      nodes: loose.map((p) => ({
        key: `peer:${p.id}`,
        label: p.name,
        sub: p.ip,
        kind: "peer" as const,
        x: 0,
        y: 0,
      })),
      x: 0,
      y: 0,
      w: 0,
      h: 0,
    });
  const reached = new Set(lines.filter((l) => l.to.kind === "resource").map((l) => l.to.id));
  for (const n of s.networks) {
    const rs = n.resources.filter((r) => r.enabled || reached.has(r.id));
    if (!rs.length) continue;
    const routerPeers = n.routers
      .filter((r) => r.enabled)
      .flatMap((r) =>
        r.peer ? [r.peer] : s.groups.filter((g) => r.peer_groups?.includes(g.id)).flatMap((g) => g.peers),
      )
      .map((id) => s.peers.find((p) => p.id === id)?.name ?? id);
    const via = routerPeers.length ? ` · via ${[...new Set(routerPeers)].join(", ")}` : " · no router";
    boxes.push({
      title: `network ${n.name}`,
      kind: "network",
      nodes: rs.map((r) => ({
        key: `resource:${r.id}`,
        label: r.name,
        sub: `${r.address}${via}`,
        kind: "resource" as const,
        x: 0,
        y: 0,
      })),
      x: 0,
      y: 0,
      w: 0,
      h: 0,
    });
  }
  return boxes;
}

/** Places boxes in rows, nodes stacked inside each box. */
function layout(boxes: Box[]): { width: number; height: number } {
  const cols = Math.max(1, Math.min(4, Math.ceil(Math.sqrt(boxes.length))));
  let y = PAD;
  let width = 0;
  for (let i = 0; i < boxes.length; i += cols) {
    const row = boxes.slice(i, i + cols);
    let x = PAD;
    let rowH = 0;
    for (const b of row) {
      b.w = NODE_W + 2 * PAD;
      b.h = HEAD + Math.max(1, b.nodes.length) * (NODE_H + GAP) + PAD - GAP;
      b.x = x;
      b.y = y;
      b.nodes.forEach((n, k) => {
        n.x = b.x + PAD;
        n.y = b.y + HEAD + k * (NODE_H + GAP);
      });
      x += b.w + BOX_GAP_X;
      rowH = Math.max(rowH, b.h);
    }
    width = Math.max(width, x - BOX_GAP_X + PAD);
    y += rowH + BOX_GAP_Y;
  }
  return { width: Math.max(width, 420), height: y - BOX_GAP_Y + PAD };
}

/** An arrow's end; `v`: on a left or right side (ends spread vertically), else on a top or bottom side. */
interface End {
  x: number;
  y: number;
  v: boolean;
}

interface Edge {
  a: End;
  b: End;
  both: boolean;
  colour: string;
  title: string;
  width: number;
  /** Drawn dashed: every line of it depends on a posture check the API cannot decide. */
  dashed: boolean;
  /** Short text on the arrow (the traffic). */
  label: string;
  /** The two ends sit in one column: the arrow bows out to the right instead of crossing what is between. */
  side: boolean;
}

function anchor(n: { x: number; y: number; w: number; h: number }, towards: { x: number; y: number }) {
  const cx = n.x + n.w / 2;
  const cy = n.y + n.h / 2;
  return towards.x > cx + n.w / 2
    ? { x: n.x + n.w, y: cy, v: true }
    : towards.x < cx - n.w / 2
      ? { x: n.x, y: cy, v: true }
      : { x: cx, y: towards.y > cy ? n.y + n.h : n.y, v: false };
}

function edgesOf(lines: readonly AccessLine[], boxes: Box[]): Edge[] {
  const rect = new Map<string, { x: number; y: number; w: number; h: number }>();
  for (const b of boxes) for (const n of b.nodes) rect.set(n.key, { x: n.x, y: n.y, w: NODE_W, h: NODE_H });
  const pairs = new Map<string, { from: string; to: string; lines: AccessLine[] }>();
  for (const l of lines) {
    const from = `peer:${l.from.id}`;
    const to = `${l.to.kind}:${l.to.id}`;
    const ra = rect.get(from);
    const rb = rect.get(to);
    if (!ra || !rb || ra === rb) continue;
    const id = `${from}>${to}`;
    const p = pairs.get(id) ?? { from, to, lines: [] };
    p.lines.push(l);
    pairs.set(id, p);
  }
  const done = new Set<string>();
  const edges: Edge[] = [];
  for (const [id, p] of pairs) {
    if (done.has(id)) continue;
    const [x, y] = id.split(">") as [string, string];
    const back = pairs.get(`${y}>${x}`);
    done.add(id);
    if (back) done.add(`${y}>${x}`);
    const ra = rect.get(p.from) as { x: number; y: number; w: number; h: number };
    const rb = rect.get(p.to) as { x: number; y: number; w: number; h: number };
    const all = [...p.lines, ...(back?.lines ?? [])];
    const traffic = [...new Set(all.map((l) => l.traffic))];
    const side = Math.abs(ra.x - rb.x) < 1;
    const a = side
      ? { x: ra.x + ra.w, y: ra.y + ra.h / 2, v: true }
      : anchor(ra, { x: rb.x + rb.w / 2, y: rb.y + rb.h / 2 });
    const b = side
      ? { x: rb.x + rb.w, y: rb.y + rb.h / 2, v: true }
      : anchor(rb, { x: ra.x + ra.w / 2, y: ra.y + ra.h / 2 });
    edges.push({
      a,
      b,
      side,
      dashed: all.every((l) => l.conditional),
      label: traffic.join(" "),
      both: back !== undefined,
      colour: traffic.length === 1 ? colourOf(traffic[0] as string) : "#7c3aed",
      title: all
        .map(
          (l) =>
            `${l.from.name} → ${l.to.name} ${l.traffic} (policy "${l.policy.name}", rule "${l.rule.name}")`,
        )
        .join("\n"),
      width: 1.8,
    });
  }
  spread(edges);
  return edges;
}

/**
 * Arrows that meet one side of a node spread along it, ordered by where their other end is, instead of all
 * meeting in the side's middle.
 */
function spread(edges: Edge[]): void {
  const ends = new Map<string, { p: End; other: End }[]>();
  for (const e of edges)
    for (const [p, other] of [
      [e.a, e.b],
      [e.b, e.a],
    ] as const) {
      const k = `${p.x},${p.y}`;
      const list = ends.get(k) ?? [];
      list.push({ p, other });
      ends.set(k, list);
    }
  for (const list of ends.values()) {
    if (list.length < 2) continue;
    // A point on a left or right side moves vertically; on a top or bottom side, horizontally.
    const vertical = list[0]?.p.v === true;
    list.sort((u, v) => (vertical ? u.other.y - v.other.y : u.other.x - v.other.x));
    const room = vertical ? NODE_H - 12 : NODE_W - 40;
    const step = room / (list.length - 1);
    const base = { x: list[0]?.p.x ?? 0, y: list[0]?.p.y ?? 0 };
    list.forEach((x, i) => {
      const off = -room / 2 + i * step;
      if (vertical) x.p.y = base.y + off;
      else x.p.x = base.x + off;
    });
  }
}

/** Moves a label down (then up) until it overlaps no label placed before it. */
function place(
  taken: { x: number; y: number; w: number; h: number }[],
  r: { x: number; y: number; w: number; h: number },
): { x: number; y: number; w: number; h: number } {
  const hits = (q: typeof r) =>
    taken.some((t) => q.x < t.x + t.w && t.x < q.x + q.w && q.y < t.y + t.h && t.y < q.y + q.h);
  for (let k = 0; k < 40; k++) {
    const dy = (k % 2 === 0 ? 1 : -1) * Math.ceil(k / 2) * (r.h + 2);
    const q = { ...r, y: r.y + dy };
    if (!hits(q)) {
      taken.push(q);
      return q;
    }
  }
  taken.push(r);
  return r;
}

/**
 * The picture of a large account: rows are the groups traffic starts from (a line counts for every group of its
 * source peer), columns the groups and networks it reaches; a cell's shade grows with the number of lines, its
 * colour says what flows, its number counts them.
 */
function matrixOf(account: Account, lines: readonly AccessLine[]): string {
  const s = account.snapshot;
  const groups = s.groups.filter((g) => !g.all && g.peers.length);
  const peerGroups = new Map<string, string[]>();
  for (const g of groups) for (const id of g.peers) peerGroups.set(id, [...(peerGroups.get(id) ?? []), g.id]);
  const resourceNetwork = new Map<string, string>();
  for (const n of s.networks) for (const r of n.resources) resourceNetwork.set(r.id, `net:${n.id}`);
  const cols = [
    ...groups.map((g) => ({ key: g.id, label: g.name })),
    ...s.networks
      .filter((n) => n.resources.length)
      .map((n) => ({ key: `net:${n.id}`, label: `network ${n.name}` })),
  ];
  const cells = new Map<string, { n: number; traffic: Set<string> }>();
  for (const l of lines) {
    const targets =
      l.to.kind === "resource" ? [resourceNetwork.get(l.to.id) ?? ""] : (peerGroups.get(l.to.id) ?? []);
    for (const g of peerGroups.get(l.from.id) ?? [])
      for (const t of targets) {
        const c = cells.get(`${g}>${t}`) ?? { n: 0, traffic: new Set<string>() };
        c.n++;
        c.traffic.add(l.traffic.split("/")[0] as string);
        cells.set(`${g}>${t}`, c);
      }
  }
  const max = Math.max(1, ...[...cells.values()].map((c) => c.n));
  const CELL = 34;
  const LEFT = 170;
  const TOP = 150;
  const width = LEFT + cols.length * CELL + 130;
  const height = TOP + groups.length * CELL + 20;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="access between groups">`,
  ];
  cols.forEach((c, j) => {
    const x = LEFT + j * CELL + CELL / 2;
    out.push(
      `<text x="${x}" y="${TOP - 8}" class="col" transform="rotate(-55 ${x} ${TOP - 8})">${esc(c.label.length > 22 ? `${c.label.slice(0, 21)}…` : c.label)}</text>`,
    );
  });
  groups.forEach((g, i) => {
    const y = TOP + i * CELL;
    out.push(
      `<text x="${LEFT - 8}" y="${y + CELL / 2 + 4}" class="row">${esc(g.name.length > 24 ? `${g.name.slice(0, 23)}…` : g.name)} (${g.peers.length})</text>`,
    );
    cols.forEach((col, j) => {
      const x = LEFT + j * CELL;
      const c = cells.get(`${g.id}>${col.key}`);
      const colour = !c
        ? "#ffffff"
        : c.traffic.size === 1
          ? colourOf([...c.traffic][0] as string)
          : "#7c3aed";
      const opacity = c ? (0.2 + (0.8 * Math.log(1 + c.n)) / Math.log(1 + max)).toFixed(2) : "1";
      out.push(
        `<rect x="${x}" y="${y}" width="${CELL - 2}" height="${CELL - 2}" rx="4" fill="${colour}" fill-opacity="${opacity}" stroke="#e2e8f0"><title>${esc(`${g.name} → ${col.label}: ${c ? `${c.n} access lines (${[...c.traffic].join(", ")})` : "nothing"}`)}</title></rect>`,
      );
      if (c)
        out.push(
          `<text x="${x + (CELL - 2) / 2}" y="${y + CELL / 2 + 3}" class="cell">${c.n > 999 ? `${Math.round(c.n / 1000)}k` : c.n}</text>`,
        );
    });
  });
  out.push("</svg>");
  return out.join("\n");
}

function svgOf(account: Account, lines: readonly AccessLine[]): string {
  const count =
    account.snapshot.peers.length + account.snapshot.networks.reduce((n, x) => n + x.resources.length, 0);
  if (count > MAX_NODES) return matrixOf(account, lines);
  const boxes = boxesOf(account, lines);
  const { width, height } = layout(boxes);
  const edges = edgesOf(lines, boxes);
  const colours = [...new Set(edges.map((e) => e.colour))];
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="access map">`,
    "<defs>",
    ...colours.map(
      (c) =>
        `<marker id="h${c.slice(1)}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="11" markerHeight="11" orient="auto-start-reverse" markerUnits="userSpaceOnUse"><path d="M0,0 L10,5 L0,10 z" fill="${c}"/></marker>`,
    ),
    "</defs>",
  );
  for (const b of boxes) {
    const fill = b.kind === "network" ? "#fef3c7" : b.kind === "none" ? "#f3f4f6" : "#e0f2fe";
    const stroke = b.kind === "network" ? "#d97706" : b.kind === "none" ? "#9ca3af" : "#0284c7";
    out.push(
      `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="12" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/>`,
      `<text x="${b.x + PAD}" y="${b.y + 22}" class="box">${esc(b.title)}</text>`,
    );
  }
  const labels: string[] = [];
  const taken: { x: number; y: number; w: number; h: number }[] = boxes.flatMap((b) =>
    b.nodes.map((n) => ({ x: n.x, y: n.y, w: NODE_W, h: NODE_H })),
  );
  for (const e of edges) {
    const dx = e.b.x - e.a.x;
    const dy = e.b.y - e.a.y;
    // A gentle curve, so that arrows between boxes of one row do not run along each other; arrows within one
    // column bow out to the right of it.
    const cx = e.side ? Math.max(e.a.x, e.b.x) + 40 + Math.abs(dy) * 0.15 : (e.a.x + e.b.x) / 2 - dy * 0.12;
    const cy = e.side ? (e.a.y + e.b.y) / 2 : (e.a.y + e.b.y) / 2 + dx * 0.12;
    const m = `url(#h${e.colour.slice(1)})`;
    out.push(
      `<path d="M${e.a.x},${e.a.y} Q${cx},${cy} ${e.b.x},${e.b.y}" fill="none" stroke="${e.colour}" stroke-width="${e.width}" stroke-opacity="0.85"${e.dashed ? ' stroke-dasharray="6 4"' : ""} marker-end="${m}"${e.both ? ` marker-start="${m}"` : ""}><title>${esc(e.title)}</title></path>`,
    );
    // The label sits on the curve's midpoint (a quadratic Bézier at t = 1/2).
    const lx = 0.25 * e.a.x + 0.5 * cx + 0.25 * e.b.x;
    const ly = 0.25 * e.a.y + 0.5 * cy + 0.25 * e.b.y;
    const text = `${e.label}${e.dashed ? " ?" : ""}`;
    const w = 7 * text.length + 10;
    const r = place(taken, { x: lx - w / 2, y: ly - 9, w, h: 16 });
    labels.push(
      `<g><rect x="${r.x}" y="${r.y}" width="${w}" height="16" rx="8" fill="#fff" stroke="${e.colour}" stroke-width="0.8"/><text x="${r.x + w / 2}" y="${r.y + 12}" class="edge" fill="${e.colour}">${esc(text)}</text></g>`,
    );
  }
  for (const b of boxes)
    for (const n of b.nodes) {
      const fill = n.kind === "resource" ? "#fffbeb" : "#ffffff";
      out.push(
        `<g><rect x="${n.x}" y="${n.y}" width="${NODE_W}" height="${NODE_H}" rx="${n.kind === "resource" ? 4 : 20}" fill="${fill}" stroke="#334155" stroke-width="1"/>`,
        `<text x="${n.x + NODE_W / 2}" y="${n.y + 17}" class="node">${esc(n.label)}</text>`,
        `<text x="${n.x + NODE_W / 2}" y="${n.y + 31}" class="sub">${esc(n.sub.length > 30 ? `${n.sub.slice(0, 29)}…` : n.sub)}</text></g>`,
      );
    }
  out.push(...labels, "</svg>");
  return out.join("\n");
}

/** LLM use through the Agent Network gateway: one row per grant, then the budget rules. */
function llmTable(v: LlmView | undefined): string {
  if (!v || (!v.lines.length && !v.rules.length)) return "";
  const rows = v.lines
    .map(
      (l) =>
        `<tr><td>${esc(l.group.name)}</td><td>${esc(l.provider.name)}</td><td>${esc(modelsText(l.models))}</td><td>${esc(
          l.caps,
        )}</td><td>${esc(l.policy.name)}</td></tr>`,
    )
    .join("\n");
  const rules = v.rules.map((r) => `<li>${esc(llmRuleText(r))}</li>`).join("\n");
  return `<h2 style="font-size:16px">LLM use through the Agent Network gateway ${esc(v.endpoint)}</h2>
<table><thead><tr><th>group</th><th>provider</th><th>models</th><th>caps</th><th>policy</th></tr></thead>
<tbody>
${rows}
</tbody></table>${rules ? `\n<p>Budget rules (every one that applies to a request must have quota left):</p><ul>\n${rules}\n</ul>` : ""}`;
}

/** The page. */
/** The table of what reverse-proxy services publish (empty text when nothing is). */
function publishedTable(published: readonly PublishedLine[]): string {
  if (!published.length) return "";
  const rows = published
    .map(
      (l) =>
        `<tr><td><code>${esc(l.url)}${esc(l.to.path ?? "")}</code></td><td>${esc(l.to.kind)} ${esc(l.to.name)} <span class="muted">${esc(`${l.to.address}:${l.to.port}`)}</span></td><td>${esc(guardText(l))}</td><td>${esc(l.service.name)}</td></tr>`,
    )
    .join("\n");
  return `<h2 style="font-size:16px">Published through reverse proxies</h2>
<table><thead><tr><th>at</th><th>target</th><th>who may reach it</th><th>service</th></tr></thead>
<tbody>
${rows}
</tbody></table>
`;
}

export function renderHtml(
  account: Account,
  lines: readonly AccessLine[],
  opts: { title: string; published?: readonly PublishedLine[]; llm?: LlmView },
): string {
  const rows = lines
    .slice(0, MAX_ROWS)
    .map(
      (l) =>
        `<tr><td>${esc(l.from.name)}</td><td>${l.to.kind === "resource" ? `resource ${esc(l.to.name)} <span class="muted">${esc(l.to.address)}</span>` : esc(l.to.name)}</td><td><code style="color:${colourOf(l.traffic)}">${esc(l.traffic)}</code></td><td>${esc(l.policy.name)}</td><td>${esc(l.rule.name)}</td><td>${l.conditional ? `only if it passes ${esc(l.conditional.map((c) => c.check).join(", "))}` : ""}</td></tr>`,
    )
    .join("\n");
  const peers = account.snapshot.peers.length;
  const large = peers + account.snapshot.networks.reduce((n, x) => n + x.resources.length, 0) > MAX_NODES;
  const legend = [
    ["#7c3aed", "all traffic / mixed"],
    ["#2563eb", "tcp"],
    ["#0d9488", "udp"],
    ["#d97706", "icmp"],
  ]
    .map(([c, t]) => `<span><i style="background:${c}"></i>${t}</span>`)
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Access map: ${esc(opts.title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#0f172a;background:#fff}
h1{font-size:20px;margin:0 0 4px} p.meta{color:#475569;margin:0 0 12px}
.legend span{margin-right:16px;font-size:13px}.legend i{display:inline-block;width:18px;height:4px;margin-right:6px;vertical-align:middle}
svg text.box{font-size:13px;font-weight:600;fill:#0f172a} svg text.node{font-size:12px;font-weight:600;text-anchor:middle;fill:#0f172a}
svg text.row{font-size:12px;text-anchor:end;fill:#0f172a} svg text.col{font-size:12px;fill:#0f172a} svg text.cell{font-size:10px;text-anchor:middle;fill:#0f172a;font-weight:600}
svg text.sub{font-size:10px;text-anchor:middle;fill:#475569} svg text.edge{font-size:11px;text-anchor:middle;font-family:ui-monospace,monospace}
.picture{overflow:auto;border:1px solid #e2e8f0;border-radius:8px;margin:12px 0 24px;padding:8px}
table{border-collapse:collapse;font-size:13px} th,td{border-bottom:1px solid #e2e8f0;padding:4px 10px;text-align:left}
th{background:#f8fafc} .muted{color:#64748b}
</style></head><body>
<h1>Access map</h1>
<p class="meta">${esc(opts.title)} · ${peers} peers · ${lines.length} access lines · ${
    large
      ? "rows: the groups traffic starts from; columns: the groups and networks it reaches; a cell counts the access lines between them (darker: more)"
      : "arrows point from the peer that may open connections; two heads: both ways; dashed, marked ?: only if the peer passes a posture check the API cannot decide"
  }</p>
<div class="legend">${legend}</div>
<div class="picture">
${svgOf(account, lines)}
</div>
<table><thead><tr><th>from</th><th>to</th><th>traffic</th><th>policy</th><th>rule</th><th>condition</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${lines.length > MAX_ROWS ? `<p class="muted">… and ${lines.length - MAX_ROWS} more lines (privnet-access show --json lists them all)</p>` : ""}
${publishedTable(opts.published ?? [])}${llmTable(opts.llm)}</body></html>
`;
}
