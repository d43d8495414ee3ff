import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { PermissionGroupEntity } from './permission-group.entity';

@Entity({ name: 'sys_user' })
export class UserEntity {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'varchar', length: 32 })
  username!: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash!: string;

  @Column({ name: 'group_id', type: 'int' })
  groupId!: number;

  @ManyToOne(() => PermissionGroupEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'group_id' })
  group?: PermissionGroupEntity;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ type: 'varchar', length: 512, default: '' })
  avatar!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  introduction!: string;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
