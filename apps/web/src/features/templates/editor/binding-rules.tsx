import { AlertCircle, CheckCircle2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import type { RuleProblem } from '../template-rules.ts';

/** A problem of the binding rules, worded for the user. */
export function useProblemText() {
  const { t } = useTranslation('templates');
  return (problem: RuleProblem) => t(`rules.${problem.code}`, problem as unknown as Record<string, unknown>);
}

interface BindingRulesProps {
  problems: RuleProblem[];
  onDeclare: (name: string) => void;
  onRemove: (name: string) => void;
}

/** What the binding rules say of the draft: all fine, or each problem with a fix when there is an obvious one. */
export function BindingRules({ problems, onDeclare, onRemove }: BindingRulesProps) {
  const { t } = useTranslation('templates');
  const problemText = useProblemText();
  return (
    <div className="mt-4" aria-live="polite" data-testid="binding-rules">
      {problems.length === 0 ? (
        <p className="flex items-center gap-1.5 text-sm text-emerald-800">
          <CheckCircle2 className="size-4" aria-hidden />
          {t('rules.ok')}
        </p>
      ) : (
        <ul className="space-y-2">
          {problems.map((problem) => (
            <li
              key={JSON.stringify(problem)}
              className="flex flex-wrap items-start justify-between gap-2 text-sm text-red-700"
              data-testid="binding-problem"
            >
              <span className="flex min-w-0 items-start gap-1.5">
                <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
                <span className="min-w-0 break-words">{problemText(problem)}</span>
              </span>
              {problem.code === 'undeclared' && (
                <Button variant="secondary" className="px-2! py-1! text-xs!" onClick={() => onDeclare(problem.name)}>
                  {t('variables.declare', { name: problem.name })}
                </Button>
              )}
              {problem.code === 'unbound' && (
                <Button variant="secondary" className="px-2! py-1! text-xs!" onClick={() => onRemove(problem.name)}>
                  {t('variables.remove', { name: problem.name })}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
