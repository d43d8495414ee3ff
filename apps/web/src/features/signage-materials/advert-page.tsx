import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PagePanel } from '@/components/page-panel';
import { MaterialsTab } from './materials-tab';

/**
 * /floor-screen/advert: the floor screens' ads and the materials they play, as tabs. Material Management is the only
 * tab until ads are built (Ad Management joins here then, before it).
 */
export function AdvertPage() {
  const { t } = useTranslation();
  return (
    <PagePanel title={t('common:route.advert')}>
      <Tabs defaultValue="material" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="material" data-testid="advert-tab-material">
            {t('signageMaterials:tabs.material')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="material" pt="md">
          <MaterialsTab />
        </Tabs.Panel>
      </Tabs>
    </PagePanel>
  );
}
