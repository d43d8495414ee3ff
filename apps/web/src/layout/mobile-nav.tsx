import { Box, Drawer } from '@mantine/core';
import { Sidebar } from './sidebar';

/** The sidebar as a drawer on a phone: loaded only there, so desktop pages do not carry the drawer's code. */
export default function MobileNav({ opened, onClose, width }: { opened: boolean; onClose: () => void; width: number }) {
  return (
    <Drawer opened={opened} onClose={onClose} size={width} withCloseButton={false} padding={0} zIndex={300}>
      <Box h="100vh">
        <Sidebar collapsed={false} />
      </Box>
    </Drawer>
  );
}
