import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const API_KEY_PREFIX = 'rk_live_';
export const newApiKey = (): string => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

/** A webhook signing secret: `whsec_` and 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

export const newVerificationCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, '0');

export const newResetToken = (): string => randomBytes(32).toString('base64url');

/** AES-256-GCM so a stored key can be shown again on the dashboard; `v1.iv.tag.ciphertext` in base64url. */
export class ApiKeyCipher {
  private readonly key: Buffer;

  constructor(hexKey: string) {
    this.key = Buffer.from(hexKey, 'hex');
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  decrypt(payload: string): string {
    const [version, iv, tag, ciphertext] = payload.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('unknown API key ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Null instead of an error when the key does not decrypt (API_KEY_ENCRYPTION_KEY changed since). */
  tryDecrypt(payload: string): string | null {
    try {
      return this.decrypt(payload);
    } catch {
      return null;
    }
  }
}
