import { PASSWORD_MAX, USERNAME_MAX, type LoginRequest, type ModifyPasswordRequest } from '@sc/contracts';
import { TextField } from '../../common/fields';

export class LoginDto implements LoginRequest {
  @TextField({ max: USERNAME_MAX, example: 'admin', description: 'Trimmed before checking' })
  username!: string;

  @TextField({ max: PASSWORD_MAX, trim: false, example: 'SmartCity@2026' })
  password!: string;
}

export class ModifyPasswordDto implements ModifyPasswordRequest {
  @TextField({ max: PASSWORD_MAX, trim: false })
  oldPassword!: string;

  @TextField({ max: PASSWORD_MAX, trim: false })
  newPassword!: string;

  @TextField({ max: PASSWORD_MAX, trim: false })
  confirmPassword!: string;
}
