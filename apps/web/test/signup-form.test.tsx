import { AuthMessages } from '@render/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SignupPage, signupBody } from '../src/features/auth/signup.page.tsx';
import { renderPage } from './helpers/render-page.tsx';

const field = (name: string) => document.querySelector(`[name="${name}"]`) as HTMLInputElement;

describe('signup form (docs/spec/entities.md, validation.md)', () => {
  it('has a labelled control named after each API field', async () => {
    renderPage(SignupPage, { path: '/signup' });
    await screen.findByRole('heading', { name: 'Create your account' });
    for (const name of [
      'name',
      'email',
      'password',
      'confirmPassword',
      'company',
      'usageSource',
      'referralSource',
      'plannedServices',
      'acceptTerms',
    ]) {
      const control = field(name);
      expect(control, name).not.toBeNull();
      expect(control.labels?.length ?? 0, `${name} has a label`).toBeGreaterThan(0);
    }
    expect(screen.getByLabelText('Full name')).toHaveAttribute('name', 'name');
    expect(document.querySelectorAll('[name="plannedServices"]')).toHaveLength(7);
  });

  it('shows every required message on an empty submit, with the spec wording', async () => {
    renderPage(SignupPage, { path: '/signup' });
    await userEvent.click(await screen.findByRole('button', { name: 'Create account' }));
    for (const message of [
      AuthMessages.nameRequired,
      AuthMessages.emailRequired,
      AuthMessages.passwordRequired,
      AuthMessages.confirmRequired,
      AuthMessages.usageSource,
      AuthMessages.referralSource,
      AuthMessages.plannedServices,
      AuthMessages.acceptTerms,
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
  });

  it('validates on blur: short name, bad email, weak password, mismatch', async () => {
    const user = userEvent.setup();
    renderPage(SignupPage, { path: '/signup' });
    await screen.findByRole('heading', { name: 'Create your account' });
    await user.type(field('name'), ' A ');
    await user.tab();
    expect(await screen.findByText('Name must be at least 2 characters')).toBeInTheDocument();
    await user.type(field('email'), 'not-an-email');
    await user.tab();
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    await user.type(field('password'), 'short');
    await user.tab();
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user.clear(field('password'));
    await user.type(field('password'), 'alllowercase1');
    await user.tab();
    expect(await screen.findByText(AuthMessages.passwordWeak)).toBeInTheDocument();
    await user.clear(field('password'));
    await user.type(field('password'), 'Str0ngPass');
    await user.type(field('confirmPassword'), 'Str0ngPas');
    await user.tab();
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
    await user.type(field('confirmPassword'), 's');
    await user.tab();
    await waitFor(() => expect(screen.queryByText('Passwords must match')).not.toBeInTheDocument());
  });

  it('sends the fields the API expects', () => {
    expect(
      signupBody({
        name: 'Ada',
        email: 'ada@example.com',
        password: 'Str0ngPass',
        confirmPassword: 'Str0ngPass',
        company: '  ',
        usageSource: 'business',
        referralSource: 'friend',
        plannedServices: ['html2img'],
        acceptTerms: true,
      }),
    ).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'Str0ngPass',
      confirmPassword: 'Str0ngPass',
      company: undefined,
      usageSource: 'business',
      referralSource: 'friend',
      plannedServices: ['html2img'],
      acceptTerms: true,
    });
  });
});
