// Small inline icons (system fonts lack some media glyphs). Decorative: the
// button around each carries the accessible name.
const common = { width: 14, height: 14, viewBox: '0 0 16 16', 'aria-hidden': true, focusable: false } as const;

export const PlayIcon = () => (
  <svg {...common}>
    <path d="M4 2.5v11l9-5.5z" fill="currentColor" />
  </svg>
);
export const PauseIcon = () => (
  <svg {...common}>
    <rect x="3.5" y="2.5" width="3" height="11" fill="currentColor" />
    <rect x="9.5" y="2.5" width="3" height="11" fill="currentColor" />
  </svg>
);
export const StepIcon = () => (
  <svg {...common}>
    <path d="M3 2.5v11l7.5-5.5z" fill="currentColor" />
    <rect x="11" y="2.5" width="2.5" height="11" fill="currentColor" />
  </svg>
);
export const SunIcon = () => (
  <svg {...common}>
    <circle cx="8" cy="8" r="3" fill="currentColor" />
    <g stroke="currentColor" strokeWidth="1.5" strokeLinecap="round">
      <path d="M8 1v2M8 13v2M1 8h2M13 8h2M3 3l1.4 1.4M11.6 11.6 13 13M3 13l1.4-1.4M11.6 4.4 13 3" />
    </g>
  </svg>
);
export const MoonIcon = () => (
  <svg {...common}>
    <path d="M11.5 10.5A5.5 5.5 0 0 1 5.5 2a6 6 0 1 0 8.5 7.6 5.4 5.4 0 0 1-2.5.9z" fill="currentColor" />
  </svg>
);
