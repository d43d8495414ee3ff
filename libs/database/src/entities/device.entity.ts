import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { DeviceType } from '@sc/contracts';

/**
 * The registry every device family shares: one row per device, whatever its type.
 * Family tables (lamps, terminals, screens, ...) hold their own fields keyed by this id.
 */
@Entity({ name: 'device' })
export class DeviceEntity {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'smallint' })
  type!: DeviceType;

  /** The device's unique code within its type (for lamps and strip lights, the clientId). */
  @Column({ type: 'varchar', length: 64 })
  code!: string;

  @Column({ type: 'varchar', length: 128 })
  name!: string;

  @Column({ name: 'region_id', type: 'int', nullable: true })
  regionId!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
