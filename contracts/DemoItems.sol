// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";

/// @title DemoItems
/// @notice "Questline Items": an ERC-1155 of three items (ids 1, 2 and 3) that anyone may mint for
/// free, up to `MAX_PER_MINT` a call. Local development chains only (contracts/deploy.ts deploys
/// it with `deployDemoContracts`): it lets a member try ERC-1155 "hold an NFT" tasks. No metadata
/// is served: the URI is empty.
contract DemoItems is ERC1155("") {
    /// @notice The collection's name, for wallets and explorers (ERC-1155 has none of its own).
    string public constant name = "Questline Items";
    /// @notice The collection's symbol.
    string public constant symbol = "QLI";
    /// @notice The highest item id; ids run from 1.
    uint256 public constant MAX_ID = 3;
    /// @notice The most units of an item one call mints.
    uint256 public constant MAX_PER_MINT = 10;

    /// @notice `id` is not one of the items (1 to `MAX_ID`).
    error UnknownItem(uint256 id);
    /// @notice `amount` is zero or more than `MAX_PER_MINT`.
    error InvalidAmount(uint256 amount);

    /// @notice Mints `amount` units of item `id` to the caller, free.
    function mint(uint256 id, uint256 amount) external {
        if (id == 0 || id > MAX_ID) revert UnknownItem(id);
        if (amount == 0 || amount > MAX_PER_MINT) revert InvalidAmount(amount);
        _mint(msg.sender, id, amount, "");
    }
}
