import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PagePanel } from '@/components/page-panel';
import { AdsTab } from '@/features/signage-ads/ads-tab';
import { MaterialsTab } from './materials-tab';

/** /floor-screen/advert: the floor screens' ads and the materials they play, as tabs: Ad Management first. */
export function AdvertPage() {
  const { t } = useTranslation();
  return (
    <PagePanel title={t('common:route.advert')}>
      <Tabs defaultValue="ad" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="ad" data-testid="advert-tab-ad">
            {t('signageAds:tabs.ad')}
          </Tabs.Tab>
          <Tabs.Tab value="material" data-testid="advert-tab-material">
            {t('signageMaterials:tabs.material')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="ad" pt="md">
          <AdsTab />
        </Tabs.Panel>
        <Tabs.Panel value="material" pt="md">
          <MaterialsTab />
        </Tabs.Panel>
      </Tabs>
    </PagePanel>
  );
}
