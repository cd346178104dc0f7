/** A panel's heading, its `id` naming the panel (`aria-labelledby`). */
export function PanelTitle({ id, text }: { id: string; text: string }) {
  return (
    <h2 id={id} className="text-sm font-semibold text-zinc-900">
      {text}
    </h2>
  );
}
