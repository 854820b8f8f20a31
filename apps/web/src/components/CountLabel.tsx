import { Badge } from 'antd';

/** A tab's label with its count (state tabs of orders, RTB campaigns, monitoring tasks). */
export function CountLabel({ text, count, testId }: { text: string; count: number; testId?: string }) {
  return (
    <span data-testid={testId}>
      {text}{' '}
      <Badge
        count={count}
        showZero
        overflowCount={9999}
        color="var(--ant-color-fill-secondary, #f0f0f0)"
        style={{ color: 'inherit' }}
      />
    </span>
  );
}
