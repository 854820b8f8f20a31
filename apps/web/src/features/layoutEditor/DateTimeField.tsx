import { DatePicker } from 'antd';
import dayjs from 'dayjs';

/**
 * A date and time (the countdown's target), as an ISO string with its offset. Its own chunk
 * (antd's date picker), loaded when a countdown is first selected, not with the editor.
 */
export default function DateTimeField({
  value,
  onCommit,
  testId,
}: {
  value: string;
  onCommit: (value: string) => void;
  testId?: string;
}) {
  return (
    <DatePicker
      showTime
      value={value ? dayjs(value) : null}
      onChange={(d) => onCommit(d ? d.format('YYYY-MM-DDTHH:mm:ssZ') : '')}
      style={{ width: '100%' }}
      data-testid={testId}
    />
  );
}
