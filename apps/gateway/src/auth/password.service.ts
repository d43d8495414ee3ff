import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { PASSWORD_MAX, PASSWORD_MIN } from '@sc/contracts';
import { AppException } from '../common/app-exception';

// OWASP's argon2id baseline: 19 MiB, 2 passes.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

/** 8 to 64 characters with at least one letter and one digit. */
export function isAcceptablePassword(password: string): boolean {
  return password.length >= PASSWORD_MIN && password.length <= PASSWORD_MAX && /[A-Za-z]/.test(password) && /\d/.test(password);
}

@Injectable()
export class PasswordService {
  /** A hash of a random password, verified against when the user does not exist so timing reveals nothing. */
  private readonly decoy = argon2.hash(`decoy-${Math.random()}`, OPTIONS);

  hash(password: string): Promise<string> {
    return hashPassword(password);
  }

  async verify(hash: string | null, password: string): Promise<boolean> {
    if (!hash) {
      await argon2.verify(await this.decoy, password).catch(() => false);
      return false;
    }
    return argon2.verify(hash, password).catch(() => false);
  }

  assertAcceptable(password: string, field = 'password'): void {
    if (!isAcceptablePassword(password)) throw AppException.field(field, 'passwordRule', { min: PASSWORD_MIN, max: PASSWORD_MAX });
  }
}
