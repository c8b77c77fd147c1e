// What the colours and shapes in the ring mean.
import { FAMILY_LOOK, ROLE_LOOK, type MsgFamily, type RoleOrDown } from './look';

const FAMILIES: MsgFamily[] = ['prevote', 'vote', 'app', 'heartbeat', 'snap', 'timeout', 'client'];
const ROLES: RoleOrDown[] = ['leader', 'follower', 'candidate', 'pre-candidate', 'down'];

export function Legend() {
  return (
    <aside className="legend" aria-label="Legend">
      <h3>Roles</h3>
      <ul>
        {ROLES.map((r) => (
          <li key={r}>
            <span className="swatch role" style={{ borderColor: `var(${ROLE_LOOK[r].cssVar})` }} aria-hidden="true">
              {ROLE_LOOK[r].icon}
            </span>
            {ROLE_LOOK[r].label}
          </li>
        ))}
      </ul>
      <h3>Messages</h3>
      <ul>
        {FAMILIES.map((f) => (
          <li key={f}>
            <svg width="30" height="14" aria-hidden="true">
              <circle cx="7" cy="7" r="5" fill={`var(${FAMILY_LOOK[f].cssVar})`} />
              <circle cx="22" cy="7" r="4.5" fill="var(--panel)" stroke={`var(${FAMILY_LOOK[f].cssVar})`} strokeWidth="2.5" />
            </svg>
            {FAMILY_LOOK[f].label}
          </li>
        ))}
      </ul>
      <p className="legend-note">
        Filled: request · hollow: response (↩). Links glow on delivery; <span className="danger">✕</span> marks a dropped message. The arc around a
        member is its election timer.
      </p>
    </aside>
  );
}
