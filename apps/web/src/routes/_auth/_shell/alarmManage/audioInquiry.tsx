import { createFileRoute } from '@tanstack/react-router';
import { AudioInquiryPage } from '@/features/alarm-intercom/audio-inquiry-page';
import { validateAudioInquirySearch } from '@/features/alarm-intercom/search';

export const Route = createFileRoute('/_auth/_shell/alarmManage/audioInquiry')({
  validateSearch: validateAudioInquirySearch,
  component: AudioInquiryPage,
});
