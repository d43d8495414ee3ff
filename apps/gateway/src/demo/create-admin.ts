import { DataSource } from 'typeorm';
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';
import { hashPassword, isAcceptablePassword } from '../auth/password.service';
import { UserFacingError } from '../config/preflight';

/**
 * First administrator of a real installation (the demo data is never loaded over real data).
 * Creates the administrators group when there is none; refuses an existing user name.
 */
export async function createAdmin(databaseUrl: string, username: string, password: string): Promise<string> {
  const name = username.trim();
  if (!name || name.length > USERNAME_MAX) throw new UserFacingError(`The user name must be 1 to ${USERNAME_MAX} characters.`);
  if (!isAcceptablePassword(password)) {
    throw new UserFacingError(`ADMIN_PASSWORD must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters with letters and digits.`);
  }
  const db = new DataSource(dataSourceOptions(databaseUrl));
  await db.initialize();
  try {
    return await db.transaction(async (tx) => {
      const taken: unknown[] = await tx.query(`SELECT 1 FROM sys_user WHERE lower(username) = lower($1)`, [name]);
      if (taken.length) throw new UserFacingError(`The user "${name}" already exists.`);
      let [group]: { id: number }[] = await tx.query(`SELECT id FROM sys_group WHERE is_admin ORDER BY id LIMIT 1`);
      if (!group) {
        [group] = await tx.query(`INSERT INTO sys_group (group_name, is_admin, remark) VALUES ('Administrators', true, 'Full access') RETURNING id`);
      }
      const hash = await hashPassword(password);
      await tx.query(`INSERT INTO sys_user (username, password_hash, group_id) VALUES ($1, $2, $3)`, [name, hash, group.id]);
      return name;
    });
  } finally {
    await db.destroy();
  }
}
