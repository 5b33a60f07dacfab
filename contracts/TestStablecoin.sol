// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title TestStablecoin
/// @notice A stand-in for a stablecoin such as USDC on local development chains only: an ERC-20
/// of 6 decimals that anyone may mint. Never deployed to a public chain (contracts/deploy.ts
/// deploys it only with `deployLocalStablecoin`); it lets the vault's allow-list, deposits and
/// withdrawals of a token other than QUEST, with other decimals, run locally.
contract TestStablecoin is ERC20 {
    /// @param holder Receives the initial supply.
    /// @param supply Units minted to `holder` at deployment.
    constructor(address holder, uint256 supply) ERC20("USD Coin (local stand-in)", "USDC") {
        _mint(holder, supply);
    }

    /// @notice 6, as USDC has.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Mints `amount` units to `to`; open to anyone (a local test token).
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
