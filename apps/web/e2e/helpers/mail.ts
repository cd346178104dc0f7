import { inject } from 'vitest';

/** The 6-digit code from the last mail the real SMTP server received for `email` (sent at signup). */
export async function mailedCode(email: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await fetch(`${inject('mailUrl')}/?to=${encodeURIComponent(email)}`);
    if (response.ok) {
      const code = /\b(\d{6})\b/.exec(await response.text())?.[1];
      if (code) return code;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no verification mail for ${email}`);
}
