import { CodeConvertBody, checkFields } from '@render/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { frameBackgroundValue, GRADIENT_PRESETS, PLAYGROUNDS } from '../src/features/playground/playground-definitions.ts';
import { CodePlaygroundPage } from '../src/features/playground/playground-pages.tsx';
import { buildRequest, decodeValues, encodeValues } from '../src/features/playground/playground-state.ts';
import { renderPage } from './helpers/render-page.tsx';

const code = PLAYGROUNDS.code;
/** Applies a change as the page does: the value, then the definition's follow-up changes. */
const change = (values: Record<string, string | boolean>, name: string, value: string) =>
  code.onChange!(name, { ...values, [name]: value });

afterEach(() => vi.unstubAllGlobals());

describe('the code playground background: none, a colour or a gradient', () => {
  it('builds the API value for each kind, and every preset is a valid gradient', () => {
    expect(frameBackgroundValue({ backgroundKind: 'none', frameBackground: '#123456' })).toBeUndefined();
    expect(frameBackgroundValue({ backgroundKind: 'color', frameBackground: ' #123456 ' })).toEqual({ color: '#123456' });
    expect(frameBackgroundValue({ backgroundKind: 'gradient', gradientFrom: '#111111', gradientTo: '#222222', gradientAngle: 45 })).toEqual(
      {
        gradient: { from: '#111111', to: '#222222', angle: 45 },
      },
    );
    // No angle: the API's default direction.
    expect(frameBackgroundValue({ backgroundKind: 'gradient', gradientFrom: '#111111', gradientTo: '#222222', gradientAngle: '' })).toEqual(
      {
        gradient: { from: '#111111', to: '#222222' },
      },
    );
    for (const preset of GRADIENT_PRESETS) {
      const background = { gradient: { from: preset.from, to: preset.to, angle: preset.angle } };
      expect(checkFields(CodeConvertBody as never, { code: 'x', background }), preset.id).toEqual({});
    }
  });

  it('sends the gradient nested as the API takes it, and nothing of the form’s own fields', () => {
    const { body, problems } = buildRequest(code, { ...code.defaults, backgroundKind: 'gradient' });
    expect(problems).toEqual({});
    const [first] = GRADIENT_PRESETS;
    expect(body.background).toEqual({ gradient: { from: first.from, to: first.to, angle: first.angle } });
    for (const name of ['backgroundKind', 'frameBackground', 'gradientPreset', 'gradientFrom', 'gradientTo', 'gradientAngle']) {
      expect(body).not.toHaveProperty(name);
    }
    // The default sends no background at all (a transparent surround).
    expect(buildRequest(code, code.defaults).body).not.toHaveProperty('background');
  });

  it('a preset fills the colours and angle; editing one by hand unselects the preset', () => {
    let values = change({ ...code.defaults, backgroundKind: 'gradient' }, 'gradientPreset', 'ocean');
    expect(values).toMatchObject({ gradientFrom: '#0ea5e9', gradientTo: '#1e3a8a', gradientAngle: '135', gradientPreset: 'ocean' });
    values = change(values, 'gradientAngle', '200');
    expect(values.gradientPreset).toBe('');
    expect(buildRequest(code, values).body.background).toEqual({ gradient: { from: '#0ea5e9', to: '#1e3a8a', angle: 200 } });
    // Back to the preset's own values: selected again.
    expect(change(values, 'gradientAngle', '135').gradientPreset).toBe('ocean');
  });

  it('shows the contract’s message under the control that caused it', () => {
    const gradient = { ...code.defaults, backgroundKind: 'gradient' };
    expect(buildRequest(code, { ...gradient, gradientFrom: 'pink' }).problems).toEqual({
      gradientFrom: 'background.gradient.from must be a colour such as #1e3a8a',
    });
    expect(buildRequest(code, { ...gradient, gradientTo: '' }).problems).toEqual({
      gradientTo: 'background.gradient.to must be a colour such as #1e3a8a',
    });
    expect(Object.keys(buildRequest(code, { ...gradient, gradientAngle: '400' }).problems)).toEqual(['gradientAngle']);
    expect(buildRequest(code, { ...gradient, gradientAngle: '400' }).problems.gradientAngle).toMatch(/background\.gradient\.angle/);
    expect(buildRequest(code, { ...code.defaults, backgroundKind: 'color', frameBackground: '#12345' }).problems).toEqual({
      frameBackground: 'background.color must be a colour such as #1e3a8a',
    });
  });

  it('keeps the gradient in a shared link', () => {
    const values = change({ ...code.defaults, backgroundKind: 'gradient' }, 'gradientPreset', 'sunset');
    expect(decodeValues(code, encodeValues(code, values))).toEqual(values);
  });

  it('on the page: choose a gradient, pick a preset by keyboard, change the angle, and the request carries it', async () => {
    const send = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(JSON.stringify({ success: true, data: { languages: ['typescript'], themes: ['monokai'], themeAliases: {} } }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', send);
    const user = userEvent.setup();
    renderPage(CodePlaygroundPage, { path: '/code-to-image' });
    const frame = await screen.findByRole('group', { name: 'Window and background' });
    await user.selectOptions(within(frame).getByLabelText('Background around the window'), 'gradient');
    const presets = within(frame).getByRole('group', { name: 'Gradient presets' });
    const indigo = within(presets).getByRole('radio', { name: 'Indigo to pink' });
    expect(indigo).toBeChecked();
    // Radios: arrow keys move the choice.
    indigo.focus();
    await user.keyboard('{ArrowRight}');
    expect(within(presets).getByRole('radio', { name: 'Ocean' })).toBeChecked();
    expect(within(frame).getByLabelText('Gradient start colour')).toHaveValue('#0ea5e9');
    expect(within(frame).getByLabelText('Gradient start colour: colour picker')).toHaveValue('#0ea5e9');
    const angle = within(frame).getByLabelText('Gradient angle (°)');
    await user.clear(angle);
    await user.type(angle, '90');
    expect(within(presets).queryByRole('radio', { checked: true })).toBeNull();
    await waitFor(() =>
      expect(screen.getByTestId('snippet-curl').textContent).toContain(
        '"background":{"gradient":{"from":"#0ea5e9","to":"#1e3a8a","angle":90}}',
      ),
    );
  });
});
