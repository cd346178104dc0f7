// When the page's handlers are attached. A prerendered page is hydrated in two passes: the shell (header,
// footer) first, then the route's content; a language chosen in between would meet content still holding the
// prerendered text, and React would throw that content away. So a choice waits for the page, and tests too
// (`html[data-hydrated]`). A page rendered by the client (no hydration) is live at once.
let hydrating = false;
let live = Promise.resolve();
let markLive: () => void = () => {};

/** main.tsx, before hydrating a prerendered page: the page itself (usePageTitle) then says when it is live. */
export function expectHydration() {
  hydrating = true;
  live = new Promise((resolve) => {
    markLive = resolve;
  });
}

export const whenPageLive = () => live;

/** After the first commit of the app (`by: 'app'`) or of a page (`by: 'page'`). */
export function livePage(by: 'app' | 'page') {
  if (by === 'app' && hydrating) return;
  hydrating = false;
  document.documentElement.dataset.hydrated = '';
  markLive();
}
