import { describe, expect, it } from 'vitest';
import { momentToDateFns, translateTimeFormats } from '../src/renderers/chart/page/moment-tokens.ts';

// Issue 29 §3: moment.js formats (Chart.js's docs and fixtures) become the date-fns formats that mean the same.
describe('moment.js time formats on the date-fns adapter', () => {
  it.each([
    ['YYYY', 'yyyy'],
    ['MMM D, YYYY', 'MMM d, yyyy'],
    ['DD/MM/YYYY HH:mm', 'dd/MM/yyyy HH:mm'],
    ['Do MMM', 'do MMM'],
    ['[Q]Q YYYY', "'Q'Q yyyy"],
    ['h:mm A', 'h:mm a'],
    ['dddd', 'EEEE'],
    ['X', 't'],
  ])('%s → %s', (moment, dateFns) => expect(momentToDateFns(moment)).toBe(dateFns));

  it('leaves date-fns formats alone', () => {
    for (const f of ['yyyy-MM-dd', 'MMM d, yyyy', 'HH:mm', 'LLLL', "d 'de' MMMM", 'aaa h時']) expect(momentToDateFns(f)).toBe(f);
  });

  it('translates displayFormats, tooltipFormat and parser of every time scale, nothing else', () => {
    const options = {
      plugins: { title: { text: 'YYYY' } },
      scales: {
        x: { type: 'time', time: { parser: 'YYYY-MM-DD', tooltipFormat: 'MMM D, YYYY', displayFormats: { day: 'MMM D' } } },
        y: {},
      },
    };
    translateTimeFormats(options);
    expect(options.scales.x.time).toEqual({ parser: 'yyyy-MM-dd', tooltipFormat: 'MMM d, yyyy', displayFormats: { day: 'MMM d' } });
    expect(options.plugins.title.text).toBe('YYYY');
  });
});
