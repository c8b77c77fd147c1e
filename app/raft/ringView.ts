// The Raft ring, drawn with D3 into an SVG it owns: members around a circle
// with role, term, vote, election-timer arc and indexes; links cut by
// partitions; messages in flight moving from sender to receiver, positioned
// from sentAt -> arriveAt against the (interpolated) virtual clock; and a brief
// glow along a link when a message is delivered, or a cross when one is dropped.
import { arc as d3arc } from 'd3-shape';
import { select, type Selection as D3Sel } from 'd3-selection';
import type { EtcdMemberView, MessageInFlightView, TraceRecordView } from '../../engine/facade/types';
import { FAMILY_LOOK, ROLE_LOOK, msgLook } from './look';

export interface RingModel {
  members: EtcdMemberView[];
  inFlight: MessageInFlightView[];
  /** Pairs that cannot talk (either direction blocked). */
  cut: Set<string>;
  /** Non-member endpoints (the playground's etcd client), drawn in the centre. */
  clients: string[];
  selectedMember: string | null;
  selectedMsg: number | null;
  picks: string[];
  /** Virtual time to draw messages at. */
  vt: number;
  /** Wall time now, for fading glows. */
  wall: number;
}

export interface RingHandlers {
  selectMember(name: string): void;
  selectMessage(m: MessageInFlightView): void;
}

interface Pt {
  x: number;
  y: number;
}

interface Flash {
  from: string;
  to: string;
  type: string;
  dropped: boolean;
  at: number;
}

const NODE_R = 50;
const FLASH_MS = 700;
const LANE = 7;
/** Room for the two label lines beside a node (they sit on its outer side). */
const LABEL_W = 150;
/** In a narrow panel the labels stack above or below their node instead: their height. */
const LABEL_STACK_H = 34;

/** The radius under which neighbouring members (with their timer rings) would touch. */
export function minRingRadius(n: number): number {
  return n < 2 ? 0 : (NODE_R + 20) / Math.sin(Math.PI / n);
}

/** The client boxes sit at the ring's centre, up to two side by side: half their extent. */
const CLIENTS_HALF_W = 75;
const CLIENTS_HALF_H = 16;

/** The smallest radius at which no member touches the client boxes in the middle. */
export function clientClearance(n: number): number {
  if (n < 2) return 0;
  const angles = Array.from({ length: n }, (_, i) => -Math.PI / 2 + (i * 2 * Math.PI) / n);
  const clear = (r: number) =>
    angles.every((a) => Math.hypot(Math.max(0, Math.abs(r * Math.cos(a)) - CLIENTS_HALF_W), Math.max(0, Math.abs(r * Math.sin(a)) - CLIENTS_HALF_H)) >= NODE_R + 12);
  let r = minRingRadius(n);
  while (!clear(r) && r < 400) r += 2;
  return r;
}

export type LabelPlace = 'left' | 'right' | 'above' | 'below';

/** The smallest radius at which stacked labels touch neither other members nor each other. */
export function stackedLabelClearance(n: number): number {
  if (n < 2) return 0;
  const at = (r: number) =>
    Array.from({ length: n }, (_, i) => {
      const a = -Math.PI / 2 + (i * 2 * Math.PI) / n;
      const x = r * Math.cos(a);
      const y = r * Math.sin(a);
      const above = Math.sin(a) < -0.2;
      const top = above ? y - (NODE_R + 10 + LABEL_STACK_H) : y + NODE_R + 8;
      return { x, y, box: { l: x - LABEL_W / 2, r: x + LABEL_W / 2, t: top, b: top + LABEL_STACK_H } };
    });
  type Box = { l: number; r: number; t: number; b: number };
  const dist = (px: number, py: number, b: Box) => Math.hypot(Math.max(0, b.l - px, px - b.r), Math.max(0, b.t - py, py - b.b));
  const overlap = (a: Box, b: Box) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
  const clear = (r: number) => {
    const ns = at(r);
    return ns.every((p, i) => ns.every((q, j) => i === j || (dist(q.x, q.y, p.box) >= NODE_R + 10 && (j < i || !overlap(p.box, q.box)))));
  };
  let r = minRingRadius(n);
  while (!clear(r) && r < 400) r += 2;
  return r;
}

/**
 * Where members go: on a circle as large as the panel allows, labels beside
 * each node when there is room, else stacked above (top half) or below it.
 */
export function ringLayout(
  n: number,
  width: number,
  height: number,
): { radius: number; cx: number; cy: number; angles: number[]; places: LabelPlace[]; neededHeight: number } {
  const angles = Array.from({ length: n }, (_, i) => -Math.PI / 2 + (i * 2 * Math.PI) / Math.max(1, n));
  const cos = angles.map(Math.cos);
  const sin = angles.map(Math.sin);
  const spanX = Math.max(1e-6, Math.max(...cos) - Math.min(...cos));
  const spanY = Math.max(1e-6, Math.max(...sin) - Math.min(...sin));
  const fit = (padX: number, padY: number) => Math.min((width - 2 * padX) / spanX, (height - 2 * padY) / spanY, 240);
  const floor = Math.max(70, minRingRadius(n), clientClearance(n));
  const side = fit(NODE_R + 22 + LABEL_W, NODE_R + 14);
  const stacked = n >= 2 && side < floor;
  const padY = stacked ? NODE_R + 14 + LABEL_STACK_H : NODE_R + 14;
  const radius = n <= 1 ? 0 : stacked ? Math.max(floor, stackedLabelClearance(n), fit(NODE_R + 10 + LABEL_W / 2, padY)) : side;
  const neededHeight = n <= 1 ? height : Math.ceil(spanY * radius + 2 * padY);
  const cx = width / 2 - (radius * (Math.max(...cos) + Math.min(...cos))) / 2;
  const cy = height / 2 - (radius * (Math.max(...sin) + Math.min(...sin))) / 2;
  const places = angles.map((_, i): LabelPlace => (stacked ? (sin[i]! < -0.2 ? 'above' : 'below') : cos[i]! < -0.2 ? 'left' : 'right'));
  return { radius, cx, cy, angles, places, neededHeight };
}

/** The ring box's height: room for five members or three, more when labels stack in a narrow panel. */
export function ringBoxHeight(n: number, width: number): number {
  const base = n >= 5 ? 440 : 330;
  return Math.max(base, ringLayout(n, width, base).neededHeight);
}

export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

export class RaftRingView {
  private readonly svg: D3Sel<SVGSVGElement, unknown, null, undefined>;
  private readonly gLinks;
  private readonly gFlash;
  private readonly gClients;
  private readonly gNodes;
  private readonly gMsgs;
  private width = 600;
  private height = 380;
  private pos = new Map<string, Pt>();
  private labelPlace = new Map<string, LabelPlace>();
  private flashes: Flash[] = [];
  private lastTraceN = -1;
  private readonly timerArc = d3arc<{ frac: number }>()
    .innerRadius(NODE_R + 4)
    .outerRadius(NODE_R + 9)
    .startAngle(0)
    .endAngle((d) => 2 * Math.PI * Math.max(0, Math.min(1, d.frac)));

  constructor(
    el: SVGSVGElement,
    private readonly handlers: RingHandlers,
  ) {
    this.svg = select(el);
    this.svg.attr('role', 'group').attr('aria-label', 'Raft members and messages');
    this.gLinks = this.svg.append('g').attr('class', 'links');
    this.gFlash = this.svg.append('g').attr('class', 'flashes').attr('aria-hidden', 'true');
    this.gClients = this.svg.append('g').attr('class', 'clients');
    this.gNodes = this.svg.append('g').attr('class', 'nodes');
    this.gMsgs = this.svg.append('g').attr('class', 'msgs');
  }

  resize(width: number, height: number): void {
    this.width = Math.max(200, width);
    this.height = Math.max(200, height);
    this.svg.attr('viewBox', `0 0 ${this.width} ${this.height}`).attr('width', this.width).attr('height', this.height);
  }

  /** Feeds delivered/dropped records to the glow effect. */
  noteTrace(records: TraceRecordView[], wall: number): void {
    for (const r of records) {
      if (r.n <= this.lastTraceN) continue;
      this.lastTraceN = r.n;
      if ((r.kind === 'deliver' || r.kind === 'drop') && r.from && r.to && r.type) {
        this.flashes.push({ from: r.from, to: r.to, type: r.type, dropped: r.kind === 'drop', at: wall });
      }
    }
    // Keep the newest glow per directed link and kind.
    const seen = new Map<string, Flash>();
    for (const f of this.flashes) if (wall - f.at < FLASH_MS) seen.set(`${f.from}>${f.to}>${f.dropped}`, f);
    this.flashes = [...seen.values()];
  }

  /** True while something is still animating (messages or fading glows). */
  animating(model: RingModel): boolean {
    return model.inFlight.length > 0 || this.flashes.some((f) => model.wall - f.at < FLASH_MS);
  }

  /** Redraws everything: members, links, clients, then what moves. */
  render(model: RingModel): void {
    this.layout(model);
    this.renderLinks(model);
    this.renderClients(model);
    this.renderNodes(model);
    this.renderMotion(model);
  }

  /** Redraws only what moves (messages and glows), on the last layout. */
  renderMotion(model: RingModel): void {
    this.renderFlashes(model);
    this.renderMessages(model);
  }

  private layout(model: RingModel): void {
    const n = model.members.length;
    // Fit the ring's bounding box (nodes plus their labels) into the panel, centred.
    const { radius, cx, cy, angles, places } = ringLayout(n, this.width, this.height);
    this.pos.clear();
    this.labelPlace.clear();
    model.members.forEach((m, i) => {
      this.pos.set(m.name, { x: cx + radius * Math.cos(angles[i]!), y: cy + radius * Math.sin(angles[i]!) });
      this.labelPlace.set(m.name, places[i]!);
    });
    const center = n === 1 ? { x: cx, y: cy + NODE_R + 40 } : { x: cx, y: cy };
    model.clients.forEach((c, i) => this.pos.set(c, { x: center.x + (i - (model.clients.length - 1) / 2) * 90, y: center.y }));
  }

  /** Start and end of the lane from `a` to `b`, trimmed to the node edges and offset to the right. */
  private lane(from: string, to: string): [Pt, Pt] | null {
    const a = this.pos.get(from);
    const b = this.pos.get(to);
    if (!a || !b) return null;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len;
    const uy = dy / len;
    const ox = -uy * LANE;
    const oy = ux * LANE;
    const trimA = this.isClient(from) ? 30 : NODE_R + 12;
    const trimB = this.isClient(to) ? 30 : NODE_R + 12;
    return [
      { x: a.x + ux * trimA + ox, y: a.y + uy * trimA + oy },
      { x: b.x - ux * trimB + ox, y: b.y - uy * trimB + oy },
    ];
  }

  private clientSet = new Set<string>();
  private isClient(name: string): boolean {
    return this.clientSet.has(name);
  }

  private renderLinks(model: RingModel): void {
    const pairs: { key: string; a: Pt; b: Pt; cut: boolean }[] = [];
    const ms = model.members;
    for (let i = 0; i < ms.length; i++) {
      for (let j = i + 1; j < ms.length; j++) {
        const a = this.pos.get(ms[i]!.name)!;
        const b = this.pos.get(ms[j]!.name)!;
        const key = pairKey(ms[i]!.name, ms[j]!.name);
        pairs.push({ key, a, b, cut: model.cut.has(key) });
      }
    }
    const g = this.gLinks
      .selectAll<SVGGElement, (typeof pairs)[number]>('g.link')
      .data(pairs, (d) => d.key)
      .join((enter) => {
        const e = enter.append('g').attr('class', 'link');
        e.append('line');
        e.append('text').attr('class', 'cut-mark').attr('text-anchor', 'middle').attr('dominant-baseline', 'central');
        return e;
      });
    g.classed('cut', (d) => d.cut);
    g.select('line')
      .attr('x1', (d) => d.a.x)
      .attr('y1', (d) => d.a.y)
      .attr('x2', (d) => d.b.x)
      .attr('y2', (d) => d.b.y);
    g.select('text')
      .attr('x', (d) => (d.a.x + d.b.x) / 2)
      .attr('y', (d) => (d.a.y + d.b.y) / 2)
      .text((d) => (d.cut ? '✂ cut' : ''));
  }

  private renderFlashes(model: RingModel): void {
    const live = this.flashes.filter((f) => model.wall - f.at < FLASH_MS && this.pos.has(f.from) && this.pos.has(f.to));
    const sel = this.gFlash
      .selectAll<SVGGElement, Flash>('g.flash')
      .data(live, (f) => `${f.from}>${f.to}>${f.dropped}`)
      .join((enter) => {
        const e = enter.append('g').attr('class', 'flash');
        e.append('line');
        e.append('text').attr('text-anchor', 'middle').attr('dominant-baseline', 'central');
        return e;
      });
    sel.each((f, i, nodes) => {
      const g = select(nodes[i]!);
      const ln = this.lane(f.from, f.to);
      if (!ln) return;
      const [a, b] = ln;
      const fade = 1 - (model.wall - f.at) / FLASH_MS;
      const color = `var(${FAMILY_LOOK[msgLook(f.type).family].cssVar})`;
      g.attr('opacity', Math.max(0, fade));
      const end = f.dropped ? { x: a.x + (b.x - a.x) * 0.8, y: a.y + (b.y - a.y) * 0.8 } : b;
      g.select('line')
        .attr('x1', a.x)
        .attr('y1', a.y)
        .attr('x2', end.x)
        .attr('y2', end.y)
        .attr('stroke', f.dropped ? 'var(--danger)' : color)
        .attr('stroke-dasharray', f.dropped ? '3 3' : null);
      g.select('text')
        .attr('x', end.x)
        .attr('y', end.y)
        .attr('class', f.dropped ? 'drop-mark' : '')
        .text(f.dropped ? '✕' : '');
    });
  }

  private renderClients(model: RingModel): void {
    this.clientSet = new Set(model.clients);
    const sel = this.gClients
      .selectAll<SVGGElement, string>('g.client')
      .data(model.clients, (d) => d)
      .join((enter) => {
        const e = enter.append('g').attr('class', 'client').attr('aria-label', (d) => `client ${d}`);
        e.append('rect').attr('x', -30).attr('y', -14).attr('width', 60).attr('height', 28).attr('rx', 6);
        e.append('text').attr('text-anchor', 'middle').attr('dominant-baseline', 'central').text('client');
        return e;
      });
    sel.attr('transform', (d) => {
      const p = this.pos.get(d)!;
      return `translate(${p.x},${p.y})`;
    });
  }

  private renderNodes(model: RingModel): void {
    const sel = this.gNodes
      .selectAll<SVGGElement, EtcdMemberView>('g.member')
      .data(model.members, (d) => d.name)
      .join((enter) => {
        const e = enter
          .append('g')
          .attr('class', 'member')
          .attr('role', 'button')
          .attr('tabindex', 0)
          .attr('data-member', (d) => d.name)
          .on('click', (_ev, d) => this.handlers.selectMember(d.name))
          .on('keydown', (ev: KeyboardEvent, d) => {
            if (ev.key === 'Enter' || ev.key === ' ') {
              ev.preventDefault();
              this.handlers.selectMember(d.name);
            }
          });
        e.append('circle').attr('class', 'focus-ring').attr('r', NODE_R + 15);
        // The labels beside the node are part of what selects it.
        e.append('rect').attr('class', 'hit').attr('y', -20).attr('height', 40).attr('width', LABEL_W).attr('fill', 'transparent');
        e.append('circle').attr('class', 'timer-track').attr('r', NODE_R + 6.5);
        e.append('path').attr('class', 'timer-arc');
        e.append('circle').attr('class', 'body').attr('r', NODE_R);
        e.append('text').attr('class', 'm-name').attr('y', -14).attr('text-anchor', 'middle');
        e.append('text').attr('class', 'm-role').attr('y', 4).attr('text-anchor', 'middle');
        e.append('text').attr('class', 'm-term').attr('y', 21).attr('text-anchor', 'middle');
        e.append('text').attr('class', 'm-vote').attr('text-anchor', 'middle');
        e.append('text').attr('class', 'm-index').attr('text-anchor', 'middle');
        const badge = e.append('g').attr('class', 'pick-badge').attr('transform', `translate(${NODE_R * 0.72},${-NODE_R * 0.86})`);
        badge.append('rect').attr('x', -4).attr('y', -10).attr('width', 50).attr('height', 18).attr('rx', 9);
        badge.append('text').attr('x', 21).attr('y', 0).attr('text-anchor', 'middle').attr('dominant-baseline', 'central').text('✂ picked');
        return e;
      });

    sel
      .attr('transform', (d) => {
        const p = this.pos.get(d.name)!;
        return `translate(${p.x},${p.y})`;
      })
      .attr('class', (d) => `member role-${d.role}`)
      .classed('selected', (d) => d.name === model.selectedMember)
      .classed('picked', (d) => model.picks.includes(d.name))
      .attr('aria-pressed', (d) => String(d.name === model.selectedMember))
      .attr(
        'aria-label',
        (d) =>
          `${d.name}: ${ROLE_LOOK[d.role].label}, term ${d.term}, commit ${d.commitIndex}, applied ${d.appliedIndex}, last index ${d.lastLogIndex}`,
      );
    sel.select<SVGTextElement>('text.m-name').text((d) => d.name);
    sel.select<SVGTextElement>('text.m-role').text((d) => `${ROLE_LOOK[d.role].icon} ${ROLE_LOOK[d.role].label}`);
    sel.select<SVGTextElement>('text.m-term').text((d) => `term ${d.term}`);
    // Labels sit on the outer side of the ring, clear of links and the client.
    const place = (d: EtcdMemberView): LabelPlace => this.labelPlace.get(d.name) ?? 'right';
    const lx = (d: EtcdMemberView) => ({ left: -(NODE_R + 22), right: NODE_R + 22, above: 0, below: 0 })[place(d)];
    const ly = (d: EtcdMemberView, line: 0 | 1) =>
      ({ left: -4, right: -4, above: -(NODE_R + 30), below: NODE_R + 22 })[place(d)] + line * 16;
    const anchor = (d: EtcdMemberView) => ({ left: 'end', right: 'start', above: 'middle', below: 'middle' })[place(d)];
    sel
      .select<SVGRectElement>('rect.hit')
      .attr('x', (d) => ({ left: -(NODE_R + 22) - LABEL_W, right: NODE_R + 16, above: -LABEL_W / 2, below: -LABEL_W / 2 })[place(d)])
      .attr('y', (d) => ({ left: -20, right: -20, above: -(NODE_R + 44), below: NODE_R + 8 })[place(d)]);
    sel
      .select<SVGTextElement>('text.m-vote')
      .attr('x', lx)
      .attr('y', (d) => ly(d, 0))
      .attr('text-anchor', anchor)
      .text((d) => (d.up ? `vote ${d.vote ?? '—'}` : 'crashed (log kept)'));
    sel
      .select<SVGTextElement>('text.m-index')
      .attr('x', lx)
      .attr('y', (d) => ly(d, 1))
      .attr('text-anchor', anchor)
      .text((d) => `commit ${d.commitIndex} · applied ${d.appliedIndex}`);
    sel
      .select<SVGPathElement>('path.timer-arc')
      .attr('d', (d) => {
        // The leader's election timer only drives CheckQuorum; followers' and candidates' is the one that matters.
        if (!d.up || d.role === 'leader' || d.electionTimeout <= 0) return '';
        return this.timerArc({ frac: d.electionElapsed / d.electionTimeout }) ?? '';
      })
      .attr('aria-hidden', 'true');
  }

  private renderMessages(model: RingModel): void {
    type Placed = { m: MessageInFlightView; p: Pt };
    const placed: Placed[] = [];
    for (const m of model.inFlight) {
      const ln = this.lane(m.from, m.to);
      if (!ln) continue;
      const span = m.arriveAt - m.sentAt;
      const f = span > 0 ? Math.max(0, Math.min(1, (model.vt - m.sentAt) / span)) : 1;
      placed.push({ m, p: { x: ln[0].x + (ln[1].x - ln[0].x) * f, y: ln[0].y + (ln[1].y - ln[0].y) * f } });
    }
    const sel = this.gMsgs
      .selectAll<SVGGElement, Placed>('g.msg')
      .data(placed, (d) => String(d.m.msgId) + '@' + d.m.arriveAt)
      .join((enter) => {
        const e = enter
          .append('g')
          .attr('class', 'msg')
          .attr('role', 'button')
          .attr('tabindex', -1)
          .on('click', (_ev, d) => this.handlers.selectMessage(d.m));
        e.append('circle').attr('r', 6.5);
        e.append('text').attr('x', 10).attr('y', 0).attr('dominant-baseline', 'central');
        return e;
      });
    sel
      .attr('transform', (d) => `translate(${d.p.x},${d.p.y})`)
      .classed('selected', (d) => d.m.msgId === model.selectedMsg)
      .attr('aria-label', (d) => `${d.m.type} from ${d.m.from} to ${d.m.to}`)
      .each((d, i, nodes) => {
        const look = msgLook(d.m.type);
        const color = `var(${FAMILY_LOOK[look.family].cssVar})`;
        const g = select(nodes[i]!);
        g.select('circle')
          .attr('fill', look.response ? 'var(--panel)' : color)
          .attr('stroke', color)
          .attr('stroke-width', look.response ? 3 : 1.5);
        g.select('text').text(look.short).attr('fill', color);
      });
  }
}
