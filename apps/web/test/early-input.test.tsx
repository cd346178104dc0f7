import { act, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { keepEarlyInput } from '../src/lib/early-input.ts';

// hydrateRoot is driven here by hand, inside act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Controlled fields as a prerendered page has them; the state is read back through `seen`. */
function Fields({ seen }: { seen: (state: Record<string, unknown>) => void }) {
  const [name, setName] = useState('default');
  const [size, setSize] = useState('s');
  const [agree, setAgree] = useState(false);
  const [untouched, setUntouched] = useState('kept as rendered');
  seen({ name, size, agree, untouched });
  return (
    <form>
      <input id="name" value={name} onChange={(event) => setName(event.target.value)} />
      <select id="size" value={size} onChange={(event) => setSize(event.target.value)}>
        <option value="s">S</option>
        <option value="l">L</option>
      </select>
      <input id="agree" type="checkbox" checked={agree} onChange={(event) => setAgree(event.target.checked)} />
      <input id="untouched" value={untouched} onChange={(event) => setUntouched(event.target.value)} />
    </form>
  );
}

it('gives the fields changed before hydration their values back once the page is live, through its own handlers', async () => {
  const root = document.createElement('div');
  document.body.append(root);
  root.innerHTML = renderToString(<Fields seen={() => {}} />);
  // The reader, before the page's code ran: typed a name, chose L; and ticked the box while it was loading.
  (root.querySelector('#name') as HTMLInputElement).value = 'typed early';
  (root.querySelector('#size') as HTMLSelectElement).value = 'l';
  let markLive = () => {};
  const live = new Promise<void>((resolve) => {
    markLive = resolve;
  });
  keepEarlyInput(root, live);
  const agree = root.querySelector('#agree') as HTMLInputElement;
  agree.checked = true;
  agree.dispatchEvent(new Event('change', { bubbles: true }));

  let state: Record<string, unknown> = {};
  await act(async () => {
    hydrateRoot(
      root,
      <Fields
        seen={(next) => {
          state = next;
        }}
      />,
    );
  });
  // Hydrated but not yet live: React has its own values (what was typed would be lost here without the fix).
  expect(state).toEqual({ name: 'default', size: 's', agree: false, untouched: 'kept as rendered' });
  await act(async () => {
    markLive();
    await live;
  });
  expect(state).toEqual({ name: 'typed early', size: 'l', agree: true, untouched: 'kept as rendered' });
  expect((root.querySelector('#name') as HTMLInputElement).value).toBe('typed early');
  root.remove();
});
