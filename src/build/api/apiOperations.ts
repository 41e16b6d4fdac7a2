import { ADMIN_OPERATIONS } from './adminOperations.js'
import { DELIVERY_OPERATIONS } from './deliveryOperations.js'
import type { ApiOperation } from './operationSpec.js'
import { PUBLIC_OPERATIONS } from './publicOperations.js'
import { SERVICE_OPERATIONS } from './serviceOperations.js'
import { STOCK_OPERATIONS } from './stockOperations.js'

/** Every operation of the service, in the order the reference presents them. */
export const API_OPERATIONS: ApiOperation[] = [
  ...PUBLIC_OPERATIONS,
  ...ADMIN_OPERATIONS,
  ...SERVICE_OPERATIONS,
  ...DELIVERY_OPERATIONS,
  ...STOCK_OPERATIONS,
]
