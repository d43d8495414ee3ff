import { AspectRatio, Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OnlineState } from '@sc/contracts';
import { NetworkBadge } from '@/components/network-status';
import { useIsMobile } from '@/layout/use-is-mobile';
import { LivePlayer } from './live-player';

/** One camera's live view, from its row in the list or a pole's devices (closing the dialog stops the player). */
export function LiveModal({ camera, onClose }: { camera: { id: number; name: string; networkStatus?: OnlineState }; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('video:player.liveTitle', { name: camera.name })}
      size="xl"
      fullScreen={mobile}
      data-testid="video-live-modal"
    >
      <AspectRatio ratio={16 / 9}>
        <LivePlayer
          camera={camera}
          status={
            camera.networkStatus === undefined ? undefined : (
              <NetworkBadge ns="video" networkStatus={camera.networkStatus} testId="video-live-network" />
            )
          }
        />
      </AspectRatio>
    </Modal>
  );
}
