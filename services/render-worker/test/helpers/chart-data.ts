/** Chart.js-shaped data of one dataset: `label`, `data`, then whatever else the dataset sets. */
export const oneDataset = (label: string, data: unknown, extra: Record<string, unknown> = {}) => ({
  datasets: [{ label, data, ...extra }],
});
