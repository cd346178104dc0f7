import { Play } from 'lucide-react';
import { Button } from '../ui/button.tsx';

/** The render form's submit button: progress while the render runs, its shortcut in the tooltip. */
export function GenerateButton({ busy, label, shortcut }: { busy: boolean; label: string; shortcut: string }) {
  return (
    <Button type="submit" busy={busy} data-testid="generate-button" title={shortcut}>
      {!busy && <Play className="size-4" aria-hidden />}
      {label}
    </Button>
  );
}
