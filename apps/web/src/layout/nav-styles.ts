/** The header's link look, shared by the bar, its dropdowns (loaded later) and the phone menu. */
export const linkClass = 'whitespace-nowrap rounded-md px-2 py-1.5 text-sm font-medium text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900';
