// What the colours and shapes in the ring mean, as a compact strip.
import { FAMILY_LOOK, ROLE_LOOK, type MsgFamily, type RoleOrDown } from './look';

const FAMILIES: MsgFamily[] = ['prevote', 'vote', 'app', 'heartbeat', 'snap', 'timeout', 'client'];
const ROLES: RoleOrDown[] = ['leader', 'follower', 'candidate', 'pre-candidate', 'down'];

export function Legend() {
  return (
    <aside className="legend" aria-label="Legend">
      <div className="legend-row">
        <span className="legend-title">Roles</span>
        <ul>
          {ROLES.map((r) => (
            <li key={r}>
              <span className="swatch role" style={{ borderColor: `var(${ROLE_LOOK[r].cssVar})`, color: `var(${ROLE_LOOK[r].cssVar})` }} aria-hidden="true">
                {ROLE_LOOK[r].icon}
              </span>
              {ROLE_LOOK[r].label}
            </li>
          ))}
        </ul>
        <span className="legend-note">arc = election timer</span>
      </div>
      <div className="legend-row">
        <span className="legend-title">Messages</span>
        <ul>
          {FAMILIES.map((f) => (
            <li key={f}>
              <svg width="12" height="12" aria-hidden="true">
                <circle cx="6" cy="6" r="5" fill={`var(${FAMILY_LOOK[f].cssVar})`} />
              </svg>
              {FAMILY_LOOK[f].label}
            </li>
          ))}
        </ul>
      </div>
      <p className="legend-note">
        <svg width="12" height="12" aria-hidden="true">
          <circle cx="6" cy="6" r="5" fill="var(--muted)" />
        </svg>{' '}
        request ·{' '}
        <svg width="12" height="12" aria-hidden="true">
          <circle cx="6" cy="6" r="4" fill="none" stroke="var(--muted)" strokeWidth="2.5" />
        </svg>{' '}
        response (↩) · a link glows as a message is delivered; <span className="danger">✕</span> = dropped
      </p>
    </aside>
  );
}
