import { Link } from '@tanstack/react-router';
import { type FormEventHandler, type ReactNode, useEffect, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';

interface AuthFormProps {
  onSubmit: FormEventHandler<HTMLFormElement>;
  busy: boolean;
  submitLabel: string;
  /** The fields, above the submit button. */
  children: ReactNode;
  /** What follows the submit button inside the form (the verify screen's "send a new code"). */
  after?: ReactNode;
}

/**
 * The form of every account screen: its fields, then one full-width submit button that shows progress. The
 * sign-in and sign-up screens are prerendered, so the form is on screen before its handler is attached: until
 * then the submit button is disabled, which also stops Enter from sending the form (a disabled default button
 * blocks implicit submission), and the method is POST, so that even a form sent early never puts a password
 * in a URL.
 */
export function AuthForm({ onSubmit, busy, submitLabel, children, after }: AuthFormProps) {
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  return (
    <form onSubmit={onSubmit} method="post" noValidate className="space-y-4">
      {children}
      <Button type="submit" busy={busy} disabled={!live} className="w-full">
        {submitLabel}
      </Button>
      {after}
    </form>
  );
}

/** A link to another account screen, as the cards' footers show it, after an optional question. */
export function AuthLink({ to, label, question }: { to: '/login' | '/signup'; label: string; question?: string }) {
  const link = (
    <Link to={to} className="font-medium text-accent-700 hover:underline">
      {label}
    </Link>
  );
  if (!question) return link;
  return (
    <>
      {question} {link}
    </>
  );
}
