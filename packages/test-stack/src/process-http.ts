/**
 * Waiting for services started as processes, and signing up through a gateway whose account service writes
 * its mails to a directory (MAIL_DIR): what the bench and the fault tests share.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Service } from './processes.ts';

export async function waitForHttp(url: string, service: Service, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`${service.name} exited with code ${service.child.exitCode}\n${service.tail()}`);
    // Any HTTP answer (a 401 or 404 included) means the server is listening.
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await sleep(100);
  }
  throw new Error(`${service.name} did not answer within ${timeoutMs} ms\n${service.tail()}`);
}

export async function waitForPing(port: number, gateway: Service, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gateway.child.exitCode !== null) throw new Error(`gateway exited with code ${gateway.child.exitCode}\n${gateway.tail()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/ping`)
      .then((res) => res.status === 200)
      .catch(() => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`gateway did not answer /api/ping within ${timeoutMs} ms\n${gateway.tail()}`);
}

export const postJson = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The verification code mailed to `email`, from the .eml files the account service writes without SMTP. */
export async function mailedCode(mailDir: string, email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const files = await readdir(mailDir).catch(() => [] as string[]);
    for (const file of files) {
      const text = await readFile(path.join(mailDir, file), 'utf8');
      const code = text.includes(email) ? /verification code is (\d{6})/.exec(text)?.[1] : undefined;
      if (code) return code;
    }
    await sleep(100);
  }
  throw new Error(`no verification mail for ${email} in ${mailDir}`);
}

/**
 * A Free account signed up through the gateway and verified with the code the account service mailed to
 * `mailDir` (its MAIL_DIR). Its email is `<emailPrefix>-<now>@example.com`: the prefix keeps it unique.
 */
export async function signUpThroughGateway(
  gatewayUrl: string,
  mailDir: string,
  account: { name: string; emailPrefix: string },
): Promise<{ userId: string; apiKey: string }> {
  const email = `${account.emailPrefix}-${Date.now()}@example.com`;
  const password = `Signup-${randomBytes(6).toString('hex')}1`;
  const signup = await postJson(gatewayUrl, '/api/auth/signup', {
    name: account.name,
    email,
    password,
    confirmPassword: password,
    usageSource: 'business',
    referralSource: 'other',
    plannedServices: ['html2img'],
    acceptTerms: true,
  });
  if (signup.status !== 201 && signup.status !== 200) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  const { userId } = (await signup.json()) as { userId: string };
  const verify = await postJson(gatewayUrl, '/api/auth/verify', { userId, verificationCode: await mailedCode(mailDir, email) });
  if (verify.status !== 200) throw new Error(`verify failed: ${verify.status} ${await verify.text()}`);
  const { user } = (await verify.json()) as { user: { apiKey: string } };
  return { userId, apiKey: user.apiKey };
}
