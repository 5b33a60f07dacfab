// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {BitMaps} from "@openzeppelin/contracts/utils/structs/BitMaps.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title AirdropDistributor
/// @notice Pays airdrops in rounds. Each round has a Merkle root over
/// `(index, account, amount)` leaves (OpenZeppelin's standard tree: double-hashed, sorted
/// pairs), a funded total and a deadline. Each index is claimable once; after the deadline the
/// operator sweeps what was not claimed.
contract AirdropDistributor is AccessControl, ReentrancyGuard {
    using SafeERC20 for IERC20;
    using BitMaps for BitMaps.BitMap;

    /// @notice May open rounds (funding them from its own balance) and sweep them after their deadline.
    bytes32 public constant OPERATOR_ROLE = keccak256("OPERATOR_ROLE");

    /// @notice One airdrop round.
    struct Round {
        bytes32 merkleRoot;
        uint64 deadline;
        bool swept;
        uint256 total;
        uint256 claimed;
    }

    /// @notice The token paid.
    IERC20 public immutable token;
    /// @notice Number of rounds opened; round ids run from 0 to `roundCount - 1`.
    uint256 public roundCount;

    mapping(uint256 roundId => Round) private _rounds;
    mapping(uint256 roundId => BitMaps.BitMap) private _claimed;

    /// @notice A zero address among the arguments.
    error ZeroAddress();
    /// @notice A round with an empty root, no tokens or a deadline not in the future.
    error InvalidRound();
    /// @notice No round with this id.
    error UnknownRound(uint256 roundId);
    /// @notice A claim at or after the round's deadline.
    error ClaimWindowClosed(uint256 roundId, uint64 deadline);
    /// @notice This index of the round was claimed before.
    error AlreadyClaimed(uint256 roundId, uint256 index);
    /// @notice The proof does not lead from the leaf to the round's root.
    error InvalidProof();
    /// @notice The claim would pay out more than the round was funded with.
    error RoundExhausted(uint256 roundId);
    /// @notice A sweep before the round's deadline.
    error RoundStillOpen(uint256 roundId, uint64 deadline);
    /// @notice The round was swept before.
    error AlreadySwept(uint256 roundId);

    /// @notice Round `roundId` opened with `total` tokens, claimable until `deadline`.
    event RoundCreated(uint256 indexed roundId, bytes32 merkleRoot, uint256 total, uint64 deadline);
    /// @notice Index `index` of round `roundId` paid `amount` to `account`.
    event Claimed(uint256 indexed roundId, uint256 index, address indexed account, uint256 amount);
    /// @notice The unclaimed `amount` of round `roundId` went to `to`.
    event Swept(uint256 indexed roundId, address indexed to, uint256 amount);

    /// @param token_ The token paid.
    /// @param admin Receives `DEFAULT_ADMIN_ROLE` (grants and revokes roles).
    /// @param operator Receives `OPERATOR_ROLE` (opens and sweeps rounds).
    constructor(IERC20 token_, address admin, address operator) {
        if (address(token_) == address(0) || admin == address(0) || operator == address(0)) revert ZeroAddress();
        token = token_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(OPERATOR_ROLE, operator);
    }

    /// @notice Opens a round: pulls `total` tokens from the caller (who approved them).
    /// @return roundId The new round's id.
    function createRound(bytes32 merkleRoot, uint256 total, uint64 deadline)
        external
        onlyRole(OPERATOR_ROLE)
        nonReentrant
        returns (uint256 roundId)
    {
        if (merkleRoot == bytes32(0) || total == 0 || deadline <= block.timestamp) revert InvalidRound();
        roundId = roundCount++;
        _rounds[roundId] = Round({merkleRoot: merkleRoot, deadline: deadline, swept: false, total: total, claimed: 0});
        emit RoundCreated(roundId, merkleRoot, total, deadline);
        token.safeTransferFrom(msg.sender, address(this), total);
    }

    /// @notice Round `roundId` as stored.
    function round(uint256 roundId) external view returns (Round memory) {
        if (roundId >= roundCount) revert UnknownRound(roundId);
        return _rounds[roundId];
    }

    /// @notice Whether index `index` of round `roundId` was claimed.
    function isClaimed(uint256 roundId, uint256 index) external view returns (bool) {
        return _claimed[roundId].get(index);
    }

    /// @notice Pays `amount` to `account` for leaf `index` of round `roundId`; anyone may submit it.
    function claim(uint256 roundId, uint256 index, address account, uint256 amount, bytes32[] calldata proof)
        external
        nonReentrant
    {
        if (roundId >= roundCount) revert UnknownRound(roundId);
        Round storage r = _rounds[roundId];
        if (block.timestamp >= r.deadline) revert ClaimWindowClosed(roundId, r.deadline);
        if (_claimed[roundId].get(index)) revert AlreadyClaimed(roundId, index);
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(index, account, amount))));
        if (!MerkleProof.verifyCalldata(proof, r.merkleRoot, leaf)) revert InvalidProof();
        if (r.claimed + amount > r.total) revert RoundExhausted(roundId);
        _claimed[roundId].set(index);
        r.claimed += amount;
        emit Claimed(roundId, index, account, amount);
        token.safeTransfer(account, amount);
    }

    /// @notice After the deadline, sends what round `roundId` did not pay out to `to`.
    function sweep(uint256 roundId, address to) external onlyRole(OPERATOR_ROLE) nonReentrant {
        if (roundId >= roundCount) revert UnknownRound(roundId);
        if (to == address(0)) revert ZeroAddress();
        Round storage r = _rounds[roundId];
        if (block.timestamp < r.deadline) revert RoundStillOpen(roundId, r.deadline);
        if (r.swept) revert AlreadySwept(roundId);
        r.swept = true;
        uint256 amount = r.total - r.claimed;
        emit Swept(roundId, to, amount);
        token.safeTransfer(to, amount);
    }
}
