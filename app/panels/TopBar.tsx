// Scenario, seed, time controls and the virtual clock.
import { SPEEDS } from '../../engine/host/protocol';
import { engine } from '../engineClient';
import { formatSpeed, formatVirtualTime } from '../lib/format';
import { MoonIcon, PauseIcon, PlayIcon, StepIcon, SunIcon } from '../lib/icons';
import { setTheme, useUi } from '../store/uiStore';
import { useInfo, useMemberOrder, usePlaying, useSpeed, useView } from '../store/viewStore';

export function TopBar() {
  return (
    <header className="topbar">
      <span className="brand" aria-label="Kubeglass">
        <span aria-hidden="true">◈</span> Kubeglass
      </span>
      <Scenario />
      <TimeControls />
      <Clock />
      <LastStep />
      <span className="spacer" />
      <ThemeToggle />
    </header>
  );
}

function Scenario() {
  const info = useInfo();
  // The member count follows membership changes (member add / remove).
  const count = useMemberOrder().length;
  const name = info ? (count > 0 ? `etcd: ${count} member${count === 1 ? '' : 's'}` : info.scenario) : 'starting…';
  return (
    <span className="scenario">
      <span className="scenario-name" data-testid="scenario-name">
        {name}
      </span>
      <span className="muted">seed</span> <span className="mono" data-testid="seed">{info?.seed ?? '—'}</span>
    </span>
  );
}

function TimeControls() {
  const playing = usePlaying();
  const speed = useSpeed();
  const ready = useView((s) => s.ready);
  const options: number[] = SPEEDS.includes(speed as (typeof SPEEDS)[number]) ? [...SPEEDS] : [...SPEEDS, speed].sort((a, b) => a - b);
  return (
    <div className="time-controls" role="group" aria-label="Time controls">
      {playing ? (
        <button type="button" className="primary" onClick={engine.pause} aria-label="Pause" disabled={!ready}>
          <PauseIcon /> Pause
        </button>
      ) : (
        <button type="button" className="primary" onClick={engine.play} aria-label="Play" disabled={!ready}>
          <PlayIcon /> Play
        </button>
      )}
      <button type="button" onClick={engine.step} aria-label="Step to next event" title="Process exactly one event (key: .)" disabled={!ready}>
        <StepIcon /> Step
      </button>
      <button type="button" onClick={engine.stepMessage} aria-label="Step to next message" title="Run until the next message arrives (key: m)" disabled={!ready}>
        <StepIcon /> Message
      </button>
      <label className="speed">
        <span>Speed</span>
        <select aria-label="Speed" value={String(speed)} onChange={(e) => engine.setSpeed(Number(e.target.value))} disabled={!ready}>
          {options.map((s) => (
            <option key={s} value={String(s)}>
              {formatSpeed(s)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** What the last Step processed, while paused. */
function LastStep() {
  const rec = useUi((s) => s.lastStep);
  const playing = usePlaying();
  if (!rec || playing) return null;
  const what = [rec.kind, rec.type, rec.from ? `${rec.from} → ${rec.to ?? ''}` : rec.to].filter(Boolean).join(' ');
  return (
    <span className="last-step mono" aria-live="polite" title={`event #${rec.n} at ${rec.t} ms`}>
      <span className="muted">stepped:</span> {what}
    </span>
  );
}

function Clock() {
  const vt = useView((s) => s.clock.virtualTime);
  const events = useView((s) => s.clock.events);
  const lagging = useView((s) => s.clock.lagging && s.clock.playing);
  const playing = usePlaying();
  return (
    <div className="clock" role="group" aria-label="Virtual clock">
      <span className="muted">t =</span>
      <output className="mono clock-time" aria-label="Virtual time" aria-live="off" data-testid="virtual-time" data-ms={vt}>
        {formatVirtualTime(vt)}
      </output>
      <span className="muted">events</span>
      <output className="mono" aria-label="Events processed" aria-live="off" data-testid="event-count">
        {events.toLocaleString('en-US')}
      </output>
      <span className={`run-state ${playing ? 'running' : 'paused'}`}>{playing ? '● running' : '❚❚ paused'}</span>
      {lagging && (
        <span className="lag" title="The engine cannot keep up with this speed; virtual time runs slower than asked">
          ⚠ behind
        </span>
      )}
    </div>
  );
}

function ThemeToggle() {
  const theme = useUi((s) => s.theme);
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button type="button" onClick={() => setTheme(next)} aria-label={`Switch to ${next} theme`} title={`Switch to ${next} theme`}>
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
