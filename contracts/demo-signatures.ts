// The demo contracts' (contracts/Demo*.sol) functions and events as people type them into
// on-chain tasks: human-readable signatures, with their selectors and topics. Browser-safe (plain
// constants); contracts/demo-signatures.test.ts checks each against the compiled ABIs.

/** DemoSwap's swap, Uniswap V2 router's signature: what a "call a contract" task names. */
export const DEMO_SWAP_FUNCTION = "swapExactTokensForTokens(uint256,uint256,address[],address,uint256)";
/** Its 4-byte selector (the same as Uniswap V2's router). */
export const DEMO_SWAP_SELECTOR = "0x38ed1739";

/** DemoSwap's event, one per swap: what an "emit an event" task names (`sender` is the member). */
export const DEMO_SWAP_EVENT =
  "Swap(address indexed sender, address indexed to, address indexed tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut)";
/** Its topic 0. */
export const DEMO_SWAP_EVENT_TOPIC = "0x20efd6d5195b7b50273f01cd79a27989255356f9f13293edc53ee142accfdb75";

/** DemoCollection's (ERC-721 "Questline Explorers") free mint of the next id. */
export const DEMO_COLLECTION_MINT_FUNCTION = "mint()";
export const DEMO_COLLECTION_MINT_SELECTOR = "0x1249c58b";

/** DemoItems' (ERC-1155 "Questline Items") free mint of 1 to 10 of item 1, 2 or 3. */
export const DEMO_ITEMS_MINT_FUNCTION = "mint(uint256,uint256)";
export const DEMO_ITEMS_MINT_SELECTOR = "0x1b2ef1ca";

/** The ERC-721 transfer DemoCollection emits on each mint (`from` the zero address). */
export const ERC721_TRANSFER_EVENT = "Transfer(address indexed from, address indexed to, uint256 indexed tokenId)";
/** The ERC-1155 transfer DemoItems emits on each mint (`from` the zero address). */
export const ERC1155_TRANSFER_SINGLE_EVENT = "TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)";
