import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Small key/value facts about this installation (for example, that demo data was loaded). */
@Entity({ name: 'app_setting' })
export class AppSettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'jsonb' })
  value!: unknown;
}
