import { Grid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PagePanel } from '@/components/page-panel';
import { AccountCard } from './account-card';
import { PasswordCard } from './password-card';

/** /profile/inforManage (not cached): the signed-in account as user info reported it, and the password change. */
export function ProfilePage() {
  const { t } = useTranslation();
  return (
    <PagePanel title={t('common:route.inforManage')}>
      <Grid gap={{ base: 'md', lg: 'xl' }}>
        <Grid.Col span={{ base: 12, md: 5, xl: 4 }}>
          <AccountCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, xl: 8 }}>
          <PasswordCard />
        </Grid.Col>
      </Grid>
    </PagePanel>
  );
}
