import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A permission group: administrators, or a general role granting permission names (spec section 6). */
@Entity({ name: 'sys_group' })
export class PermissionGroupEntity {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ name: 'group_name', type: 'varchar', length: 32 })
  groupName!: string;

  @Column({ name: 'is_admin', type: 'boolean', default: false })
  isAdmin!: boolean;

  @Column({ name: 'permission_menu', type: 'text', array: true, default: () => "'{}'" })
  permissionMenu!: string[];

  @Column({ type: 'varchar', length: 255, default: '' })
  remark!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
