import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { OperationModule } from '@sc/contracts';
import { OperationLogView } from './operation-log-page';

const route = getRouteApi('/_auth/_shell/floor-screen/log');

/** Floor-standing display › Operation log: the operation log of the floor screens' calls (the one log, filtered). */
export function SignageLogPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  return (
    <OperationLogView
      title={t('common:route.floorScreenLog')}
      module={OperationModule.Signage}
      search={search}
      go={(next, replace) => void navigate({ search: next, replace })}
    />
  );
}
