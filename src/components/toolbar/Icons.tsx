// Small line icons for the toolbar's icon buttons (16 px, currentColor, decorative: the buttons
// carry their names in aria-label and title).

const common = { width: 16, height: 16, viewBox: '0 0 16 16', fill: 'none', stroke: 'currentColor', strokeWidth: 1.5, 'aria-hidden': true } as const;

export function TableIcon() {
  return (
    <svg {...common}>
      <rect x="1.75" y="2.75" width="12.5" height="10.5" rx="1.5" />
      <path d="M1.75 6.25h12.5M6 6.25v7" />
    </svg>
  );
}

export function TreeIcon() {
  return (
    <svg {...common}>
      <path d="M2.5 2.75h5M5 5.25v8M5 8.25h3.5M5 12.75h3.5" />
      <path d="M10 8.25h4M10 12.75h4" strokeWidth="2" />
    </svg>
  );
}

/** Assembly: an instruction listing, one line marked hot. */
export function AsmIcon() {
  return (
    <svg {...common}>
      <path d="M2 3.25h3M7 3.25h7M2 8h3M2 12.75h3M7 12.75h5" />
      <path d="M7 8h7" strokeWidth="2.5" />
    </svg>
  );
}

export function CallersIcon() {
  return (
    <svg {...common}>
      <rect x="1.75" y="1.75" width="12.5" height="3" rx="0.8" />
      <rect x="4.25" y="6.5" width="7.5" height="3" rx="0.8" strokeWidth="2" />
      <rect x="1.75" y="11.25" width="12.5" height="3" rx="0.8" />
    </svg>
  );
}

export function SourceIcon() {
  return (
    <svg {...common}>
      <path d="M5.5 4.5 2 8l3.5 3.5M10.5 4.5 14 8l-3.5 3.5" />
      <path d="M9 2.75 7 13.25" />
    </svg>
  );
}

export function ClockIcon() {
  return (
    <svg {...common}>
      <circle cx="8" cy="8" r="6.25" />
      <path d="M8 4.5V8l2.5 1.75" />
    </svg>
  );
}

export function ResetZoomIcon() {
  return (
    <svg {...common}>
      <circle cx="7" cy="7" r="4.75" />
      <path d="M10.5 10.5l3.75 3.75M4.75 7h4.5" />
    </svg>
  );
}

export function MoreIcon() {
  return (
    <svg {...common} fill="currentColor" stroke="none">
      <circle cx="3" cy="8" r="1.4" />
      <circle cx="8" cy="8" r="1.4" />
      <circle cx="13" cy="8" r="1.4" />
    </svg>
  );
}
