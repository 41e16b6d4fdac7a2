import { ADMIN_OPERATIONS } from './adminOperations.js'
import { COMPLIANCE_OPERATIONS } from './complianceOperations.js'
import { AUDIT_OPERATIONS } from './auditOperations.js'
import { DELIVERY_OPERATIONS } from './deliveryOperations.js'
import { HOLD_OPERATIONS } from './holdOperations.js'
import { INDEX_OPERATIONS } from './indexOperations.js'
import { DEMAND_OPERATIONS } from './demandOperations.js'
import { EXPORT_OPERATIONS } from './exportOperations.js'
import type { ApiOperation } from './operationSpec.js'
import { LINE_OPERATIONS } from './lineOperations.js'
import { ORDER_OPERATIONS } from './orderOperations.js'
import { PREORDER_OPERATIONS } from './preorderOperations.js'
import { PUBLIC_OPERATIONS } from './publicOperations.js'
import { SERVICE_OPERATIONS } from './serviceOperations.js'
import { STOCK_OPERATIONS } from './stockOperations.js'

/** Every operation of the service, in the order the reference presents them. */
export const API_OPERATIONS: ApiOperation[] = [
  ...PUBLIC_OPERATIONS,
  ...ADMIN_OPERATIONS,
  ...PREORDER_OPERATIONS,
  ...SERVICE_OPERATIONS,
  ...DELIVERY_OPERATIONS,
  ...COMPLIANCE_OPERATIONS,
  ...HOLD_OPERATIONS,
  ...AUDIT_OPERATIONS,
  ...STOCK_OPERATIONS,
  ...ORDER_OPERATIONS,
  ...LINE_OPERATIONS,
  ...INDEX_OPERATIONS,
  ...DEMAND_OPERATIONS,
  ...EXPORT_OPERATIONS,
]
