import { describe, expect, it } from 'vitest';
import { comparisonOf } from '../../../src/simulator/demo-comparison.ts';

describe('the options a demo topic weighs', () => {
  it('reads "between X and Y", "X vs Y", "use X or Y" and "which: X or Y", with what they are for', () => {
    expect(comparisonOf('How should our team decide between Postgres and DynamoDB for billing?')).toEqual({
      options: ['Postgres', 'DynamoDB'],
      purpose: 'billing',
    });
    expect(comparisonOf('React vs Vue for the dashboard')).toEqual({ options: ['React', 'Vue'], purpose: 'dashboard' });
    expect(comparisonOf('Monolith versus microservices for our checkout service?')).toEqual({
      options: ['Monolith', 'microservices'],
      purpose: 'checkout service',
    });
    expect(comparisonOf('Should we use Slack or Discord?')).toEqual({ options: ['Slack', 'Discord'], purpose: null });
    expect(comparisonOf('Choose between a mobile app and a web app')).toEqual({ options: ['mobile app', 'web app'], purpose: null });
    expect(comparisonOf('Which is better: Kafka or RabbitMQ for events?')).toEqual({ options: ['Kafka', 'RabbitMQ'], purpose: 'events' });
  });

  it('finds none in a topic that weighs no named options, or whose "options" are whole sentences', () => {
    expect(comparisonOf('How can we make our weekly planning meeting shorter?')).toBeNull();
    expect(comparisonOf('What should we do about on-call or support rotations?')).toBeNull();
    expect(comparisonOf('Between the launch and the audit we lose two weeks to meetings that nobody wanted at all, and then what?')).toBeNull();
  });
});
