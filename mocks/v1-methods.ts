import type { MockMethod } from './scenarios.js';

/**
 * The mock method of each A2A v1.0 operation by its name, which is both the JSON-RPC method and the
 * gRPC RPC of `lf.a2a.v1.A2AService`.
 */
export const V1_METHODS: Readonly<Record<string, MockMethod>> = {
  SendMessage: 'sendMessage',
  SendStreamingMessage: 'sendStreamingMessage',
  GetTask: 'getTask',
  ListTasks: 'listTasks',
  CancelTask: 'cancelTask',
  SubscribeToTask: 'subscribeToTask',
  CreateTaskPushNotificationConfig: 'createTaskPushNotificationConfig',
  GetTaskPushNotificationConfig: 'getTaskPushNotificationConfig',
  ListTaskPushNotificationConfigs: 'listTaskPushNotificationConfig',
  DeleteTaskPushNotificationConfig: 'deleteTaskPushNotificationConfig',
  GetExtendedAgentCard: 'getExtendedAgentCard',
};
