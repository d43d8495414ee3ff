import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { LoginResult, UserInfo } from '@sc/contracts';
import { Audit, CurrentCaller, Public } from '../common/decorators';
import { clientIp, type AppRequest, type Caller } from '../common/request-context';
import { AuthService } from './auth.service';
import { LoginDto, ModifyPasswordDto } from './dto/auth.dto';
import { SessionService } from './session.service';

@ApiTags('session')
@ApiBearerAuth()
@Controller('user')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionService,
  ) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  @Audit('Sign in')
  login(@Body() dto: LoginDto, @Req() req: AppRequest): Promise<LoginResult> {
    return this.auth.login(dto.username, dto.password, clientIp(req), String(req.headers['user-agent'] ?? ''));
  }

  @Get('info')
  info(@CurrentCaller() caller: Caller): Promise<UserInfo> {
    return this.auth.info(caller);
  }

  @Get('logout')
  @Audit('Sign out')
  async logout(@CurrentCaller() caller: Caller): Promise<null> {
    await this.sessions.revoke(caller.sessionId);
    return null;
  }

  @Post('modifyPassword')
  @HttpCode(200)
  @Audit('Change own password')
  async modifyPassword(@CurrentCaller() caller: Caller, @Body() dto: ModifyPasswordDto): Promise<null> {
    await this.auth.modifyPassword(caller, dto.oldPassword, dto.newPassword, dto.confirmPassword);
    return null;
  }
}
