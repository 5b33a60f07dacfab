// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title DemoSwap
/// @notice A fixed-rate swap between two ERC-20s, with Uniswap V2's router signature
/// (`swapExactTokensForTokens`) so that "swap on a DEX" tasks can be tried locally. It is not a
/// market: there is no curve and no fee; it pays from reserves the deployer funded. Local
/// development chains only (contracts/deploy.ts deploys it with `deployDemoContracts` between
/// QUEST and the stand-in USDC).
contract DemoSwap {
    using SafeERC20 for IERC20;

    /// @notice The first token of the pair (QUEST locally).
    IERC20 public immutable tokenA;
    /// @notice The second token of the pair (the stand-in USDC locally).
    IERC20 public immutable tokenB;
    /// @notice Units of `tokenA` that one unit of `tokenB` is worth; tokenA → tokenB divides by it
    /// (rounding down), tokenB → tokenA multiplies. 10**14 for QUEST (18 decimals) against USDC
    /// (6 decimals) makes 1 QUEST = 0.01 USDC.
    uint256 public immutable rate;

    /// @notice A rate of zero.
    error InvalidRate();
    /// @notice The swap was sent after its `deadline` (unix seconds).
    error Expired(uint256 deadline, uint256 timestamp);
    /// @notice `path` is not [tokenA, tokenB] nor [tokenB, tokenA].
    error InvalidPath();
    /// @notice The swap would pay `amountOut`, which is zero or less than `amountOutMin`.
    error InsufficientOutputAmount(uint256 amountOut, uint256 amountOutMin);
    /// @notice The swap holds `reserve` of the token out, less than the `amountOut` it would pay.
    error InsufficientReserve(uint256 reserve, uint256 amountOut);

    /// @notice `sender` swapped `amountIn` of `tokenIn` for `amountOut` of `tokenOut`, paid to `to`.
    event Swap(address indexed sender, address indexed to, address indexed tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut);

    /// @param tokenA_ The first token (the one with more units per unit of value).
    /// @param tokenB_ The second token.
    /// @param rate_ Units of `tokenA_` per unit of `tokenB_`.
    constructor(IERC20 tokenA_, IERC20 tokenB_, uint256 rate_) {
        if (rate_ == 0) revert InvalidRate();
        tokenA = tokenA_;
        tokenB = tokenB_;
        rate = rate_;
    }

    /// @notice What a swap of `amountIn` of `tokenIn` pays (zero for a token not in the pair).
    function quote(address tokenIn, uint256 amountIn) public view returns (uint256 amountOut) {
        if (tokenIn == address(tokenA)) return amountIn / rate;
        if (tokenIn == address(tokenB)) return amountIn * rate;
        return 0;
    }

    /// @notice Takes `amountIn` of `path[0]` from the caller (it must have approved this contract)
    /// and pays the fixed-rate amount of `path[1]` to `to`, as Uniswap V2's router does.
    /// @return amounts `[amountIn, amountOut]`.
    function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        returns (uint256[] memory amounts)
    {
        if (block.timestamp > deadline) revert Expired(deadline, block.timestamp);
        if (path.length != 2) revert InvalidPath();
        (address tokenIn, address tokenOut) = (path[0], path[1]);
        bool inPair = (tokenIn == address(tokenA) && tokenOut == address(tokenB)) || (tokenIn == address(tokenB) && tokenOut == address(tokenA));
        if (!inPair) revert InvalidPath();
        uint256 amountOut = _pay(IERC20(tokenIn), IERC20(tokenOut), amountIn, amountOutMin, to);
        emit Swap(msg.sender, to, tokenIn, tokenOut, amountIn, amountOut);
        amounts = new uint256[](2);
        amounts[0] = amountIn;
        amounts[1] = amountOut;
    }

    /// @dev Checks the output and the reserve, pulls `amountIn` from the caller and pays `to`.
    function _pay(IERC20 tokenIn, IERC20 tokenOut, uint256 amountIn, uint256 amountOutMin, address to) private returns (uint256 amountOut) {
        amountOut = quote(address(tokenIn), amountIn);
        if (amountOut == 0 || amountOut < amountOutMin) revert InsufficientOutputAmount(amountOut, amountOutMin);
        uint256 reserve = tokenOut.balanceOf(address(this));
        if (reserve < amountOut) revert InsufficientReserve(reserve, amountOut);
        tokenIn.safeTransferFrom(msg.sender, address(this), amountIn);
        tokenOut.safeTransfer(to, amountOut);
    }
}
