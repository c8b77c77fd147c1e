// React shell around the D3 ring: it owns nothing but the <svg> ref. Drawing
// happens in a requestAnimationFrame loop that reads the stores directly, so
// frame-rate motion never goes through React renders.
import { useEffect, useRef, useState } from 'react';
import { estimateVirtualTime, useView, type ViewState } from '../store/viewStore';
import { select, useUi, type UiState } from '../store/uiStore';
import { RaftRingView, pairKey, ringBoxHeight, type RingModel } from './ringView';

export function cutPairs(partition: ViewState['partition']): Set<string> {
  const cut = new Set<string>();
  const groups = partition.groups;
  for (let i = 0; i < groups.length; i++)
    for (let j = i + 1; j < groups.length; j++) for (const a of groups[i]!) for (const b of groups[j]!) cut.add(pairKey(a, b));
  for (const [a, b] of partition.blocked) cut.add(pairKey(a, b));
  return cut;
}

function model(v: ViewState, ui: UiState, wall: number, cut: Set<string>): RingModel {
  const members = v.memberOrder.map((n) => v.members[n]).filter((m) => m !== undefined);
  const memberSet = new Set(v.memberOrder);
  const clients = new Set<string>();
  for (const c of v.components) if (!memberSet.has(c.name) && /client/.test(c.kind + c.name)) clients.add(c.name);
  for (const m of v.inFlight) {
    if (!memberSet.has(m.from)) clients.add(m.from);
    if (!memberSet.has(m.to)) clients.add(m.to);
  }
  const sel = ui.selection;
  return {
    members,
    inFlight: v.inFlight,
    cut,
    clients: [...clients].sort(),
    selectedMember: sel?.type === 'member' ? sel.name : null,
    selectedMsg: sel?.type === 'message' ? sel.msgId : null,
    picks: ui.partitionPick,
    vt: estimateVirtualTime(v, wall),
    wall,
  };
}

export function RaftRing() {
  // Five members need more room than three to stay apart.
  const count = useView((s) => s.memberOrder.length);
  const svgRef = useRef<SVGSVGElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  // A narrow panel stacks the labels above and below the members: the ring needs more height.
  const [width, setWidth] = useState(0);

  useEffect(() => {
    const svg = svgRef.current;
    const box = boxRef.current;
    if (!svg || !box) return;
    const view = new RaftRingView(svg, {
      selectMember: (name) => select({ type: 'member', name }),
      selectMessage: (m) => select({ type: 'message', msgId: m.msgId, seen: m }),
    });
    // Members and links redraw when their data changes (at most every STRUCT_MS
    // unless the user did something); messages and glows move every frame.
    const STRUCT_MS = 50;
    let dirty = true;
    let structDirty = true;
    let uiDirty = true;
    let lastStruct = 0;
    let raf = 0;
    let cutFor: ViewState['partition'] | null = null;
    let cut = new Set<string>();
    const ro = new ResizeObserver(() => {
      view.resize(box.clientWidth, box.clientHeight);
      setWidth(box.clientWidth);
      uiDirty = true;
    });
    ro.observe(box);
    view.resize(box.clientWidth, box.clientHeight);
    const unsubView = useView.subscribe((s, prev) => {
      if (s.trace !== prev.trace) view.noteTrace(s.trace.slice(-200), performance.now());
      if (s.members !== prev.members || s.partition !== prev.partition || s.components !== prev.components) structDirty = true;
      dirty = true;
    });
    const unsubUi = useUi.subscribe(() => {
      uiDirty = true;
    });
    const loop = () => {
      raf = requestAnimationFrame(loop);
      const v = useView.getState();
      const wall = performance.now();
      if (v.partition !== cutFor) {
        cutFor = v.partition;
        cut = cutPairs(v.partition);
      }
      const m = model(v, useUi.getState(), wall, cut);
      if (uiDirty || (structDirty && wall - lastStruct >= STRUCT_MS)) {
        uiDirty = structDirty = dirty = false;
        lastStruct = wall;
        view.render(m);
        return;
      }
      if (!dirty && !view.animating(m)) return;
      dirty = false;
      view.renderMotion(m);
    };
    raf = requestAnimationFrame(loop);
    return () => {
      cancelAnimationFrame(raf);
      ro.disconnect();
      unsubView();
      unsubUi();
      svg.replaceChildren();
    };
  }, []);

  return (
    <div className="ring-box" ref={boxRef} style={{ height: ringBoxHeight(count, width || 1000) }}>
      <svg ref={svgRef} className="raft-ring" />
    </div>
  );
}
