// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// @title DemoCollection
/// @notice "Questline Explorers" (QLX): an ERC-721 that anyone may mint for free, one token a
/// call, ids from 1 in order. Local development chains only (contracts/deploy.ts deploys it with
/// `deployDemoContracts`): it lets a member try "hold an NFT" tasks without a real collection.
contract DemoCollection is ERC721("Questline Explorers", "QLX") {
    /// @notice Tokens minted so far; also the id of the latest one (0 before the first).
    uint256 public totalMinted;

    /// @notice Mints the next Explorer to the caller, free.
    /// @return id The new token's id.
    function mint() external returns (uint256 id) {
        id = ++totalMinted;
        _safeMint(msg.sender, id);
    }
}
