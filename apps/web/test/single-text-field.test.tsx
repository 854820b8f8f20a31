import { departmentNameSchema } from '@marquee/protocol';
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { Button, Form } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SingleTextField } from '../src/components/SingleTextField';
import { initI18n } from '../src/i18n';
import { installDomShims } from './harness';

vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  configure({ asyncUtilTimeout: 8000 });
  installDomShims();
  await initI18n('en-US');
});

afterEach(() => cleanup());

function renderField(schema?: typeof departmentNameSchema) {
  render(
    <Form>
      <SingleTextField label="Name" schema={schema} testId="single" />
      <Button htmlType="submit" data-testid="submit">
        OK
      </Button>
    </Form>,
  );
  return screen.getByTestId('single') as HTMLInputElement;
}

describe('SingleTextField (spec section 5: single-field entry within 12 characters)', () => {
  it('stops at 12 characters by default and says so', async () => {
    const input = renderField();
    expect(input.maxLength).toBe(12);
    fireEvent.click(screen.getByTestId('submit'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
  });

  it('takes the length of a rule of its own (a department name: 20)', () => {
    expect(renderField(departmentNameSchema).maxLength).toBe(20);
  });
});
